import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where the registry keeps blob bytes. `DirectoryBlobStore` is content-addressed in the data
 * directory (`<root>/blobs/sha256/ab/<hex>`, uploads in progress under `<root>/uploads/<uuid>`,
 * streamed to disk, never buffered). A server fleet sharing no disk can put an object store
 * behind this same interface (or run an external registry: FLOTILLA_REGISTRY_URL).
 *
 * Metadata (which repository links which blob, uploads, manifests, tags) is in PostgreSQL
 * (registry.repository.ts); the store only holds bytes.
 */
export interface BlobStore {
  /** Creates an empty upload file. */
  beginUpload(uuid: string): Promise<void>;
  /** Bytes received so far for an upload, or null when there is no such upload file. */
  uploadSize(uuid: string): Promise<number | null>;
  /**
   * Appends a stream to an upload; fails (nothing appended past the limit kept) when the upload
   * would exceed `maxBytes`. `hash`, when given, is fed every byte appended (the upload's
   * running digest). Returns the new size.
   */
  appendUpload(uuid: string, body: Readable, maxBytes: number, hash?: Hash): Promise<number>;
  /** The upload's sha256 digest (`sha256:<hex>`), read back from its file. */
  digestUpload(uuid: string): Promise<string>;
  /** Moves a verified upload into place as blob `digest` (replacing identical bytes). */
  commitUpload(uuid: string, digest: string): Promise<void>;
  removeUpload(uuid: string): Promise<void>;
  /** A blob's size, or null. */
  blobSize(digest: string): Promise<number | null>;
  /** A blob's bytes from `start` to `end` inclusive (whole blob when omitted). */
  openBlob(digest: string, range?: { start: number; end: number }): Readable;
  removeBlob(digest: string): Promise<void>;
}

export const DIGEST = /^sha256:[0-9a-f]{64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class UploadTooLargeError extends Error {}

function counter(start: number, maxBytes: number, hash?: Hash): Transform & { bytes: number } {
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      t.bytes += chunk.length;
      if (t.bytes > maxBytes) return done(new UploadTooLargeError(`the upload is larger than ${maxBytes} bytes`));
      hash?.update(chunk);
      done(null, chunk);
    },
  }) as Transform & { bytes: number };
  t.bytes = start;
  return t;
}

export class DirectoryBlobStore implements BlobStore {
  constructor(readonly root: string) {}

  private blobPath(digest: string): string {
    if (!DIGEST.test(digest)) throw new Error('invalid digest');
    const hex = digest.slice('sha256:'.length);
    return join(this.root, 'blobs', 'sha256', hex.slice(0, 2), hex);
  }

  private uploadPath(uuid: string): string {
    if (!UUID.test(uuid)) throw new Error('invalid upload id');
    return join(this.root, 'uploads', uuid);
  }

  async beginUpload(uuid: string): Promise<void> {
    const file = this.uploadPath(uuid);
    await mkdir(dirname(file), { recursive: true });
    const handle = await open(file, 'wx', 0o600);
    await handle.close();
  }

  async uploadSize(uuid: string): Promise<number | null> {
    return stat(this.uploadPath(uuid)).then((s) => s.size).catch(() => null);
  }

  async appendUpload(uuid: string, body: Readable, maxBytes: number, hash?: Hash): Promise<number> {
    const file = this.uploadPath(uuid);
    const start = (await this.uploadSize(uuid)) ?? 0;
    const count = counter(start, maxBytes, hash);
    try {
      await pipeline(body, count, createWriteStream(file, { flags: 'a' }));
    } catch (err) {
      // Keep only what was there: a failed append leaves the upload resumable at `start`.
      const handle = await open(file, 'r+').catch(() => null);
      await handle?.truncate(start);
      await handle?.close();
      body.resume();
      throw err;
    }
    return count.bytes;
  }

  async digestUpload(uuid: string): Promise<string> {
    const hash = createHash('sha256');
    await pipeline(createReadStream(this.uploadPath(uuid), { highWaterMark: 1 << 20 }), hash);
    return `sha256:${hash.digest('hex')}`;
  }

  async commitUpload(uuid: string, digest: string): Promise<void> {
    const target = this.blobPath(digest);
    await mkdir(dirname(target), { recursive: true });
    await rename(this.uploadPath(uuid), target);
  }

  async removeUpload(uuid: string): Promise<void> {
    await rm(this.uploadPath(uuid), { force: true });
  }

  async blobSize(digest: string): Promise<number | null> {
    return stat(this.blobPath(digest)).then((s) => s.size).catch(() => null);
  }

  openBlob(digest: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.blobPath(digest), { highWaterMark: 1 << 20, ...(range ?? {}) });
  }

  async removeBlob(digest: string): Promise<void> {
    await rm(this.blobPath(digest), { force: true });
  }
}
