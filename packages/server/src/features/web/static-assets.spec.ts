import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadStaticAssets } from './static-assets.js';

describe('loadStaticAssets', () => {
  let dir: string;
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('never indexes a variant still being written, and several indexes of one directory at once all succeed', async () => {
    dir = await mkdtemp(join(tmpdir(), 'flotilla-static-'));
    await writeFile(join(dir, 'index.html'), `<!doctype html><title>x</title>${'<p>dashboard</p>'.repeat(200)}`);
    await writeFile(join(dir, 'app.js'), `console.log(${JSON.stringify('x'.repeat(5000))});`);
    // Left by a writer that is still at work (or died): not an asset.
    await writeFile(join(dir, 'index.html.br.flotilla-0123456789ab.tmp'), 'partial');

    // Two servers starting on one build (as two apps in one test process do): each writes its
    // compressed variants while the other lists the directory.
    const indexes = await Promise.all(Array.from({ length: 4 }, () => loadStaticAssets(dir)));
    await Promise.all(indexes.map((i) => i.complete));
    for (const { assets } of indexes) {
      expect([...assets.keys()].sort()).toEqual(['/app.js', '/index.html']);
      expect(assets.get('/index.html')?.encoded.gzip).toBeDefined();
    }
    const left = (await readdir(dir)).filter((f) => f.endsWith('.tmp') && !f.includes('0123456789ab'));
    expect(left).toEqual([]);
  });
});
