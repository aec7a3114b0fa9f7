import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, utimesSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './support/net.js';

// `npm start` (scripts/start.mjs) on a first start, as a newcomer's terminal shows it: the
// dashboard is (re)built, the server bundled and started with its embedded PostgreSQL.
const root = new URL('../../../', import.meta.url).pathname;

describe('npm start output (scripts/start.mjs)', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('a first start prints a one-line build notice and the banner only; the build details go to a log in the data directory', { timeout: 600_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-npm-start-'));
    dirs.push(dir);
    // Sources newer than the built dashboard: start.mjs builds it, as on a first start.
    const now = new Date();
    utimesSync(join(root, 'packages/web/index.html'), now, now);
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: '', PORT: String(port), FLOTILLA_DATA_DIR: dir, FLOTILLA_ADMIN_PASSWORD: 'start-script-admin' };
    delete env.FLOTILLA_EMBEDDED_PG_PORT;
    delete env.FLOTILLA_DEMO_DEVICES;
    const child = spawn(process.execPath, [join(root, 'scripts/start.mjs')], { cwd: root, env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not finish starting:\n${out}\n${err}`)), 540_000);
      child.stdout.on('data', () => {
        if (out.includes('Press Ctrl-C to stop.')) {
          clearTimeout(timer);
          resolve();
        }
      });
      void closed.then((code) => reject(new Error(`npm start exited with ${code}:\n${out}\n${err}`)));
    });
    child.kill('SIGINT');
    expect(await closed).toBe(0);

    const lines = out.split('\n').filter((l) => l !== '');
    const banner = lines.findIndex((l) => l.includes('Flotilla is running'));
    // Before the banner: the build notice, and nothing else (no chunk listing, no npm noise).
    expect(lines.slice(0, banner).filter((l) => l !== '[flotilla] ')).toEqual([expect.stringMatching(/^\[flotilla\] building the dashboard .*build\.log/)]);
    expect(err).toBe('');
    for (const line of lines) expect(line).toMatch(/^\[flotilla\]/);
    expect(out).not.toMatch(/kB|gzip|vite|dist\/assets/);
    // The outbox is read on /admin (a browser cannot send the bearer token /v7 wants).
    expect(out).toContain(`http://localhost:${port}/admin`);
    expect(out).not.toContain('/v7/email_outbox');
    // The details are kept: Vite's chunk listing in the build log, start-up steps in the server log.
    const buildLog = readFileSync(join(dir, 'logs', 'build.log'), 'utf8');
    expect(buildLog).toMatch(/dist\/assets\/.*\.js/);
    // A production bundle whatever NODE_ENV the caller has (vitest runs this with NODE_ENV=test;
    // Vite then picked React's and emotion's development builds for the shared dist, which the
    // e2e tier served when it came after this test: docs/decisions.md, CI time, 2026-11-29).
    const assets = join(root, 'packages/web/dist/assets');
    const development = readdirSync(assets).filter((f) => f.endsWith('.js') && /In HTML, %s cannot be a child|potentially unsafe when doing server-side rendering/.test(readFileSync(join(assets, f), 'utf8')));
    expect(development).toEqual([]);
    expect(readFileSync(join(dir, 'logs', 'flotilla.log'), 'utf8')).toContain('applied migration');
  });
});
