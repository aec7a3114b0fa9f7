import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { createRequire } from 'node:module';
import type { Ignore } from '@balena/dockerignore';
import { pack } from 'tar-fs';

// A CommonJS module whose `module.exports` is the factory (its typings say `export default`).
const dockerignore = createRequire(import.meta.url)('@balena/dockerignore') as (options?: { ignorecase?: boolean }) => Ignore;

/**
 * Which files of a build context are left out of the tar sent to the engine: the context's
 * `.dockerignore` rules (Docker's syntax), except that the Dockerfile and .dockerignore
 * themselves are always sent, as `docker build` does.
 */
export async function contextIgnore(context: string, dockerfile: string): Promise<(path: string) => boolean> {
  const rules = await readFile(join(context, '.dockerignore'), 'utf8').catch(() => '');
  const lines = rules
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  if (lines.length === 0) return () => false;
  const ig = dockerignore({ ignorecase: false }).add(lines);
  const always = new Set([dockerfile.replace(/^\.\//, ''), '.dockerignore']);
  return (path: string) => {
    const rel = relative(context, path).split(sep).join('/');
    if (rel === '' || rel.startsWith('..')) return false;
    return !always.has(rel) && ig.ignores(rel);
  };
}

/** The build context as a tar stream for the engine's build endpoint. */
export async function packContext(context: string, dockerfile: string): Promise<NodeJS.ReadableStream> {
  return pack(context, { ignore: await contextIgnore(context, dockerfile) });
}
