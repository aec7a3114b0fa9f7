import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileOnce, replaceFile } from './write-once.js';

describe('files written whole (write-once)', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flotilla-write-once-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('createFileOnce makes the file (mode 0600) once; a second call keeps the first content; no temporary file is left', async () => {
    const path = join(dir, 'secrets.key');
    expect(await createFileOnce(path, 'first\n')).toBe(true);
    expect(await createFileOnce(path, 'second\n')).toBe(false);
    expect(await readFile(path, 'utf8')).toBe('first\n');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['secrets.key']);
  });

  it('of many concurrent createFileOnce calls exactly one wins and the file holds its whole text', async () => {
    const path = join(dir, 'token-key.pem');
    const texts = Array.from({ length: 20 }, (_, i) => `key ${i} `.repeat(500));
    const won = await Promise.all(texts.map((t) => createFileOnce(path, t)));
    expect(won.filter(Boolean)).toHaveLength(1);
    expect(await readFile(path, 'utf8')).toBe(texts[won.indexOf(true)]);
    expect(await readdir(dir)).toEqual(['token-key.pem']);
  });

  it('replaceFile replaces the content whole and leaves no temporary file', async () => {
    const path = join(dir, 'postgres-password');
    await replaceFile(path, 'old\n');
    await replaceFile(path, 'new\n');
    expect(await readFile(path, 'utf8')).toBe('new\n');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['postgres-password']);
  });
});
