import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contextIgnore } from './context.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'flotilla-cli-context-'));
  await mkdir(join(dir, 'src'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('build context', () => {
  it('sends everything without a .dockerignore', async () => {
    const ignored = await contextIgnore(dir, 'Dockerfile');
    expect(ignored(join(dir, 'node_modules', 'x.js'))).toBe(false);
  });

  it(".dockerignore rules leave files out, but never the Dockerfile or .dockerignore", async () => {
    await writeFile(join(dir, '.dockerignore'), '# comment\nnode_modules\n*.log\nsrc/secret*\n!keep.log\n.dockerignore\nDockerfile.prod\n');
    const ignored = await contextIgnore(dir, 'Dockerfile.prod');
    expect(ignored(join(dir, 'node_modules'))).toBe(true);
    expect(ignored(join(dir, 'node_modules', 'a', 'b.js'))).toBe(true);
    expect(ignored(join(dir, 'debug.log'))).toBe(true);
    expect(ignored(join(dir, 'keep.log'))).toBe(false);
    expect(ignored(join(dir, 'src', 'secret.txt'))).toBe(true);
    expect(ignored(join(dir, 'src', 'main.ts'))).toBe(false);
    expect(ignored(join(dir, 'Dockerfile.prod'))).toBe(false);
    expect(ignored(join(dir, '.dockerignore'))).toBe(false);
  });
});
