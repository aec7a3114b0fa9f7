import { randomBytes } from 'node:crypto';
import { link, open, rename, unlink } from 'node:fs/promises';

/**
 * Files the server makes once in its data directory (the secrets key, the registry's token
 * key, the embedded PostgreSQL's password) must never be seen half-written: a kill -9 or a
 * power cut between creating such a file and writing it used to leave it empty, and every
 * later start failed on it (docs/crash-safety.md). The text goes to a temporary file beside
 * it, is flushed to disk, and only then takes the name.
 */

async function writeTemporary(path: string, text: string, mode: number): Promise<string> {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx', mode);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await unlink(temporary).catch(() => undefined);
    throw err;
  }
  await handle.close();
  return temporary;
}

/**
 * Creates `path` with `text` unless it exists (as `writeFile`'s 'wx' flag, two starts racing
 * keep the first one's file): whole or not at all. Returns whether this call made it.
 */
export async function createFileOnce(path: string, text: string, mode = 0o600): Promise<boolean> {
  const temporary = await writeTemporary(path, text, mode);
  try {
    await link(temporary, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

/** Replaces `path` with `text`: readers see the old file or the new one, never a part. */
export async function replaceFile(path: string, text: string, mode = 0o600): Promise<void> {
  const temporary = await writeTemporary(path, text, mode);
  try {
    await rename(temporary, path);
  } catch (err) {
    await unlink(temporary).catch(() => undefined);
    throw err;
  }
}
