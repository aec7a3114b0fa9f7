import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { ContentCoding } from '../../infra/http/compression.js';

/**
 * The built dashboard's files, indexed once at start-up, each with pre-compressed brotli and
 * gzip variants next to it (`app-123.js.br`, `app-123.js.gz`) for the types that compress.
 * The dashboard build makes them (packages/web/vite.config.ts runs this module after
 * `vite build`); a server started on a build without them makes the missing ones itself, once:
 * gzip before it serves, brotli (~3 s of brotli 11 for the 1.8 MB build) in the background.
 * They are written next to the file through a temporary name and a rename, so servers started
 * together do not trip over each other; a read-only build directory keeps them in memory.
 * A variant older than its file is made again.
 */
/** File types worth compressing. Images, fonts (woff2 is brotli inside) and archives are not. */
export const COMPRESSIBLE_EXTENSIONS = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.svg', '.txt', '.md', '.xml', '.ico', '.webmanifest', '.wasm']);

const VARIANT_SUFFIX: Record<ContentCoding, string> = { br: '.br', gzip: '.gz' };

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export interface AssetVariant {
  /** File to read the bytes from, or the bytes themselves when they could not be written. */
  source: string | Buffer;
  size: number;
  /** Strong ETag of these bytes: each coding's representation has its own. */
  etag: string;
}

export interface StaticAsset {
  identity: AssetVariant;
  /** Only the codings that made the file smaller. */
  encoded: Partial<Record<ContentCoding, AssetVariant>>;
}

export async function readVariant(variant: AssetVariant): Promise<Buffer> {
  return typeof variant.source === 'string' ? readFile(variant.source) : variant.source;
}

/** Compresses at the top levels: done once per build, so the bytes matter more than the time. */
function compressStatic(body: Buffer, coding: ContentCoding): Promise<Buffer> {
  return coding === 'br'
    ? brotliAsync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzipAsync(body, { level: constants.Z_BEST_COMPRESSION });
}

const etagOf = (body: Buffer, suffix = '') => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}${suffix}"`;

/** A variant being written (renamed into place once complete); never served or indexed. */
const TEMPORARY = /\.flotilla-[0-9a-f]{12}\.tmp$/;

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && !TEMPORARY.test(e.name)).map((e) => join(e.parentPath, e.name));
}

/** How many brotli jobs run at once in the background: libuv's pool (4 threads) stays free for requests. */
const BACKGROUND_CONCURRENCY = 2;

export interface StaticAssetIndex {
  /** By URL path (`/assets/app.js`). */
  assets: Map<string, StaticAsset>;
  /** Settles when every missing brotli variant has been made (already settled when none was missing). */
  complete: Promise<void>;
}

/**
 * Indexes `root` (an absolute path without trailing separator). Missing gzip variants are made
 * before it answers (gzip -9 of the whole 1.8 MB build takes ~0.1 s); missing brotli ones
 * (brotli 11: seconds) in the background, each served as soon as it exists.
 */
export async function loadStaticAssets(root: string, log?: (message: string) => void): Promise<StaticAssetIndex> {
  const files = await listFiles(root).catch(() => [] as string[]);
  const present = new Set(files);
  const isVariant = (f: string) => Object.values(VARIANT_SUFFIX).some((suffix) => f.endsWith(suffix) && present.has(f.slice(0, -suffix.length)));
  const assets = new Map<string, StaticAsset>();
  const pending: { asset: StaticAsset; file: string; body: Buffer; coding: ContentCoding }[] = [];
  let readOnly = false;

  /** The variant's bytes, made and written when missing or older than the file. */
  const variantOf = async (file: string, body: Buffer, mtimeMs: number, coding: ContentCoding, make: boolean): Promise<AssetVariant | 'missing' | undefined> => {
    const path = file + VARIANT_SUFFIX[coding];
    const existing = await stat(path).catch(() => undefined);
    let bytes: Buffer;
    let source: string | Buffer = path;
    if (existing && existing.mtimeMs >= mtimeMs) {
      bytes = await readFile(path);
    } else if (!make) {
      return 'missing';
    } else {
      bytes = await compressStatic(body, coding);
      // Unique per writer: two servers (or two apps in one process) may index one directory at once.
      const temporary = `${path}.flotilla-${randomBytes(6).toString('hex')}.tmp`;
      try {
        await writeFile(temporary, bytes);
        await rename(temporary, path);
      } catch {
        await unlink(temporary).catch(() => undefined);
        readOnly = true;
        source = bytes;
      }
    }
    return bytes.length < body.length ? { source, size: bytes.length, etag: etagOf(body, `-${coding}`) } : undefined;
  };

  await Promise.all(
    files
      .filter((f) => !isVariant(f))
      .map(async (file) => {
        const body = await readFile(file);
        const asset: StaticAsset = { identity: { source: file, size: body.length, etag: etagOf(body) }, encoded: {} };
        if (COMPRESSIBLE_EXTENSIONS.has(extname(file).toLowerCase())) {
          const { mtimeMs } = await stat(file);
          const gz = await variantOf(file, body, mtimeMs, 'gzip', true);
          if (gz && gz !== 'missing') asset.encoded.gzip = gz;
          const br = await variantOf(file, body, mtimeMs, 'br', false);
          if (br === 'missing') pending.push({ asset, file, body, coding: 'br' });
          else if (br) asset.encoded.br = br;
        }
        assets.set('/' + relative(root, file).split(sep).join('/'), asset);
      }),
  );

  const queue = [...pending];
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const { mtimeMs } = await stat(job.file);
      const variant = await variantOf(job.file, job.body, mtimeMs, job.coding, true);
      if (variant && variant !== 'missing') job.asset.encoded[job.coding] = variant;
    }
  };
  const complete = Promise.all(Array.from({ length: BACKGROUND_CONCURRENCY }, worker)).then(
    () => {
      if (readOnly) log?.(`${root} is not writable: the dashboard's compressed files are kept in memory (made again at each start)`);
    },
    (err: unknown) => log?.(`compressing the dashboard's files failed: ${String(err)}`),
  );
  return { assets, complete };
}
