import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { alphanumericSecret } from '../auth/secret.js';
import { BadRequestError, HttpError } from '../errors.js';

/**
 * Where uploaded files (release assets) live. `DirectoryFileStore` keeps them in the data
 * directory; an object store (S3 and friends) can take its place behind the same interface
 * for servers that share no disk. Keys are random (192 bits) and never shown to clients:
 * they reach a file only through a signed link (./signed-links.ts).
 */

export interface FileMeta {
  filename: string;
  contentType: string;
}

export interface StoredFile {
  key: string;
  size: number;
}

/** A multipart upload in progress (balena's beginUpload / commitUpload). */
export interface PendingUpload extends FileMeta {
  /** What the upload will be attached to (e.g. `release_asset(5).asset`). */
  target: string;
  size: number;
  chunkSize: number;
  parts: number;
}

export interface UploadedPart {
  partNumber: number;
  etag: string;
}

export interface FileStore {
  /** Stores a stream as a new file; 413 (and nothing kept) past `maxBytes`. */
  put(body: Readable, meta: FileMeta, maxBytes: number): Promise<StoredFile>;
  /** A file's bytes and metadata, or null when there is none under `key`. */
  open(key: string): Promise<{ stream: Readable; size: number; meta: FileMeta } | null>;
  /** Removes a file; a missing one is not an error. */
  remove(key: string): Promise<void>;
  beginUpload(upload: PendingUpload): Promise<string>;
  pendingUpload(uuid: string): Promise<PendingUpload | null>;
  /** Stores part `partNumber` (at most `maxBytes`), returning its ETag (MD5, as S3 does). */
  putPart(uuid: string, partNumber: number, body: Readable, maxBytes: number): Promise<string>;
  /** Joins the parts into one file; 400 when a part is missing, has another ETag or the size differs. */
  commitUpload(uuid: string, parts: readonly UploadedPart[]): Promise<StoredFile>;
  abortUpload(uuid: string): Promise<void>;
  /** Drops uploads begun more than `ageMs` ago and never committed. */
  dropStaleUploads(ageMs: number, now?: number): Promise<number>;
}

const KEY = /^[A-Za-z0-9]{20,64}$/;

export function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, `The file is larger than the limit of ${maxBytes.toLocaleString('en-US')} bytes`);
}

/** Counts bytes through a stream and fails past `maxBytes`. */
function limiter(maxBytes: number, hash?: ReturnType<typeof createHash>): Transform & { bytes: number } {
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      t.bytes += chunk.length;
      if (t.bytes > maxBytes) return done(tooLarge(maxBytes));
      hash?.update(chunk);
      done(null, chunk);
    },
  }) as Transform & { bytes: number };
  t.bytes = 0;
  return t;
}

/** Files under `<root>/objects/<key>` with `<key>.json` beside each; uploads under `<root>/uploads/<uuid>/`. */
export class DirectoryFileStore implements FileStore {
  private readonly objects: string;
  private readonly uploads: string;

  constructor(root: string) {
    this.objects = join(root, 'objects');
    this.uploads = join(root, 'uploads');
  }

  private path(key: string): string {
    if (!KEY.test(key)) throw new BadRequestError('Invalid file key');
    return join(this.objects, key);
  }

  private async write(body: Readable, file: string, maxBytes: number, hash?: ReturnType<typeof createHash>): Promise<number> {
    const count = limiter(maxBytes, hash);
    const tmp = `${file}.partial`;
    try {
      await pipeline(body, count, createWriteStream(tmp, { mode: 0o600 }));
      await rename(tmp, file);
      return count.bytes;
    } catch (err) {
      await rm(tmp, { force: true });
      // Drain what the client still sends so the error reaches it as a response.
      body.resume();
      throw err;
    }
  }

  async put(body: Readable, meta: FileMeta, maxBytes: number): Promise<StoredFile> {
    await mkdir(this.objects, { recursive: true });
    const key = alphanumericSecret(192);
    const file = this.path(key);
    const size = await this.write(body, file, maxBytes);
    await writeFile(`${file}.json`, JSON.stringify(meta), { mode: 0o600 });
    return { key, size };
  }

  async open(key: string): Promise<{ stream: Readable; size: number; meta: FileMeta } | null> {
    if (!KEY.test(key)) return null;
    const file = this.path(key);
    try {
      const [info, meta] = await Promise.all([stat(file), readFile(`${file}.json`, 'utf8')]);
      return { stream: createReadStream(file), size: info.size, meta: JSON.parse(meta) as FileMeta };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    if (!KEY.test(key)) return;
    const file = this.path(key);
    await rm(file, { force: true });
    await rm(`${file}.json`, { force: true });
  }

  private uploadDir(uuid: string): string {
    if (!KEY.test(uuid)) throw new BadRequestError('Invalid upload id');
    return join(this.uploads, uuid);
  }

  async beginUpload(upload: PendingUpload): Promise<string> {
    const uuid = alphanumericSecret(192);
    const dir = this.uploadDir(uuid);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(join(dir, 'upload.json'), JSON.stringify({ ...upload, begunAt: Date.now() }), { mode: 0o600 });
    return uuid;
  }

  async pendingUpload(uuid: string): Promise<PendingUpload | null> {
    if (!KEY.test(uuid)) return null;
    try {
      return JSON.parse(await readFile(join(this.uploadDir(uuid), 'upload.json'), 'utf8')) as PendingUpload;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async putPart(uuid: string, partNumber: number, body: Readable, maxBytes: number): Promise<string> {
    const hash = createHash('md5');
    await this.write(body, join(this.uploadDir(uuid), `part-${partNumber}`), maxBytes, hash);
    const etag = hash.digest('hex');
    await writeFile(join(this.uploadDir(uuid), `part-${partNumber}.etag`), etag);
    return etag;
  }

  async commitUpload(uuid: string, parts: readonly UploadedPart[]): Promise<StoredFile> {
    const upload = await this.pendingUpload(uuid);
    if (!upload) throw new BadRequestError('No such upload');
    const dir = this.uploadDir(uuid);
    const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
    if (sorted.length !== upload.parts || sorted.some((p, i) => p.partNumber !== i + 1)) {
      throw new BadRequestError(`The upload has ${upload.parts} parts, numbered 1 to ${upload.parts}`);
    }
    for (const p of sorted) {
      const etag = await readFile(join(dir, `part-${p.partNumber}.etag`), 'utf8').catch(() => null);
      if (etag === null) throw new BadRequestError(`Part ${p.partNumber} was not uploaded`);
      if (etag !== p.etag) throw new BadRequestError(`Part ${p.partNumber} has another ETag`);
    }
    await mkdir(this.objects, { recursive: true });
    const key = alphanumericSecret(192);
    const file = this.path(key);
    const out = await open(`${file}.partial`, 'w', 0o600);
    let size = 0;
    try {
      for (const p of sorted) {
        const bytes = await readFile(join(dir, `part-${p.partNumber}`));
        await out.write(bytes);
        size += bytes.length;
      }
    } finally {
      await out.close();
    }
    if (size !== upload.size) {
      await rm(`${file}.partial`, { force: true });
      throw new BadRequestError(`The parts hold ${size} bytes, not the ${upload.size} announced`);
    }
    await rename(`${file}.partial`, file);
    await writeFile(`${file}.json`, JSON.stringify({ filename: upload.filename, contentType: upload.contentType } satisfies FileMeta), { mode: 0o600 });
    await this.abortUpload(uuid);
    return { key, size };
  }

  async abortUpload(uuid: string): Promise<void> {
    if (!KEY.test(uuid)) return;
    await rm(this.uploadDir(uuid), { recursive: true, force: true });
  }

  async dropStaleUploads(ageMs: number, now = Date.now()): Promise<number> {
    let dropped = 0;
    const names = await readdir(this.uploads).catch(() => [] as string[]);
    for (const uuid of names) {
      if (!KEY.test(uuid)) continue;
      const info = await readFile(join(this.uploadDir(uuid), 'upload.json'), 'utf8')
        .then((t) => JSON.parse(t) as { begunAt?: number })
        .catch(() => null);
      const begunAt = info?.begunAt ?? (await stat(this.uploadDir(uuid)).then((s) => s.mtimeMs).catch(() => now));
      if (now - begunAt > ageMs) {
        await this.abortUpload(uuid);
        dropped++;
      }
    }
    return dropped;
  }
}
