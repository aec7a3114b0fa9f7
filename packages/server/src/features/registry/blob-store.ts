import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
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
  /** Puts a verified upload in place as blob `digest`, keeping the upload's file (removeUpload drops it). */
  commitUpload(uuid: string, digest: string): Promise<void>;
  removeUpload(uuid: string): Promise<void>;
  /** Upload ids whose file was last written before `before`. */
  listUploads(before: Date): Promise<string[]>;
  /** A blob's size, or null. */
  blobSize(digest: string): Promise<number | null>;
  /** A blob's bytes from `start` to `end` inclusive (whole blob when omitted). */
  openBlob(digest: string, range?: { start: number; end: number }): Readable;
  removeBlob(digest: string): Promise<void>;
}

export const DIGEST = /^sha256:[0-9a-f]{64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class UploadTooLargeError extends Error {}

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
    let bytes = start;
    // Counted and hashed beside the pipe (no extra stream stage on the hot path).
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) body.destroy(new UploadTooLargeError(`the upload is larger than ${maxBytes} bytes`));
      else hash?.update(chunk);
    };
    body.on('data', onData);
    try {
      await pipeline(body, createWriteStream(file, { flags: 'a', highWaterMark: 1 << 20 }));
    } catch (err) {
      // Keep only what was there: a failed append leaves the upload resumable at `start`.
      const handle = await open(file, 'r+').catch(() => null);
      await handle?.truncate(start);
      await handle?.close();
      body.resume();
      throw err;
    } finally {
      body.off('data', onData);
    }
    return bytes;
  }

  async digestUpload(uuid: string): Promise<string> {
    const hash = createHash('sha256');
    await pipeline(createReadStream(this.uploadPath(uuid), { highWaterMark: 1 << 20 }), hash);
    return `sha256:${hash.digest('hex')}`;
  }

  async commitUpload(uuid: string, digest: string): Promise<void> {
    const target = this.blobPath(digest);
    await mkdir(dirname(target), { recursive: true });
    // A link, not a move: this runs inside the transaction that records the blob, and a crash
    // before it commits must leave the upload whole (resumable), not an upload row with no file.
    // The caller removes the upload's file once that transaction committed. An existing blob
    // file holds the same bytes (content-addressed).
    await link(this.uploadPath(uuid), target).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
  }

  async removeUpload(uuid: string): Promise<void> {
    await rm(this.uploadPath(uuid), { force: true });
  }

  async listUploads(before: Date): Promise<string[]> {
    const names = await readdir(join(this.root, 'uploads')).catch(() => [] as string[]);
    const out: string[] = [];
    for (const name of names) {
      if (!UUID.test(name)) continue;
      const info = await stat(this.uploadPath(name)).catch(() => null);
      if (info && info.mtimeMs < before.getTime()) out.push(name);
    }
    return out;
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
