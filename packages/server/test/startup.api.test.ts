import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort } from './support/net.js';

// Drives the real `main.ts` as `npm start` does: embedded PostgreSQL in a data directory,
// first-start administrator, clean stop on SIGTERM, and a second start reusing the data.
const root = new URL('../../../', import.meta.url).pathname;


interface Running {
  child: ChildProcess;
  output: () => string;
  port: number;
}

async function start(env: Record<string, string>): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'packages/server/src/main.ts')], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', PORT: String(port), LOG_LEVEL: 'warn', ...env },
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 90_000);
    child.stdout!.on('data', () => {
      // The last line of the start-up banner: everything before it has been printed.
      if (out.includes('Press Ctrl-C to stop.')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  return { child, output: () => out, port };
}

async function stop(r: Running): Promise<number | null> {
  return new Promise((resolve) => {
    r.child.on('exit', (code) => resolve(code));
    r.child.kill('SIGTERM');
  });
}

describe('npm start (main.ts)', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('starts embedded PostgreSQL, prints a generated admin password once, stops cleanly and reuses the data', { timeout: 240_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-start-'));
    dirs.push(dir);
    const env = { FLOTILLA_DATA_DIR: dir, FLOTILLA_EMBEDDED_PG_PORT: String(await freePort()), FLOTILLA_ADMIN_EMAIL: 'root@example.com' };

    const first = await start(env);
    const match = /generated password, shown only this once: (\S+)/.exec(first.output());
    expect(match).not.toBeNull();
    const password = match![1]!;
    const base = `http://127.0.0.1:${first.port}`;
    const login = await fetch(`${base}/login_`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root@example.com', password }) });
    expect(login.status).toBe(200);
    const token = await login.text();
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(claims.permissions).toContain('admin.home');
    // Data written now must survive the restart.
    const reg = await fetch(`${base}/user/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'persist@example.com', password: 'persist-password' }) });
    expect(reg.status).toBe(201);
    expect(await stop(first)).toBe(0);
    expect(first.output()).toContain('embedded PostgreSQL stopped');

    const second = await start(env);
    expect(second.output()).not.toContain('generated password');
    const again = await fetch(`http://127.0.0.1:${second.port}/login_`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'persist@example.com', password: 'persist-password' }) });
    expect(again.status).toBe(200);
    const csp = await fetch(`http://127.0.0.1:${second.port}/fleets`);
    expect([200, 503]).toContain(csp.status);
    expect(await stop(second)).toBe(0);
  });

  it('uses the PostgreSQL named by DATABASE_URL instead of starting one', { timeout: 120_000 }, async () => {
    const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await admin.connect();
    const name = `external_${process.pid}`;
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(inject('pgAdminUrl'));
    url.pathname = `/${name}`;
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-ext-'));
    dirs.push(dir);
    const running = await start({ DATABASE_URL: url.toString(), FLOTILLA_DATA_DIR: dir, FLOTILLA_ADMIN_PASSWORD: 'external-admin-pw' });
    expect(running.output()).not.toContain('starting embedded PostgreSQL');
    const { rows } = await admin.query(`SELECT count(*)::int AS n FROM pg_database WHERE datname = $1`, [name]);
    expect(rows[0].n).toBe(1);
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    const users = await c.query(`SELECT email FROM "user" WHERE platform_role = 'administrator'`);
    await c.end();
    expect(users.rows).toEqual([{ email: 'admin@flotilla.local' }]);
    expect(await stop(running)).toBe(0);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('refuses a bad configuration, listing every bad variable at once', { timeout: 30_000 }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'packages/server/src/main.ts')], {
      cwd: root,
      env: { ...process.env, PORT: 'abc', DATABASE_URL: 'mysql://nope', FLOTILLA_ADMIN_PASSWORD: 'short' },
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(err).toContain('PORT');
    expect(err).toContain('DATABASE_URL');
    expect(err).toContain('FLOTILLA_ADMIN_PASSWORD');
  });

  it('refuses a bad plans file with billing on, naming the file and the field (issue 18)', { timeout: 30_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-plans-'));
    const file = join(dir, 'plans.json');
    await writeFile(file, JSON.stringify({ features: [{ slug: 'saml', title: 'SAML' }], plans: [{ code: 'free', title: 'Free', monthlyPrice: 'zero', annualPrice: 0, canSelfServe: true, supportTier: 'community', includes: {}, addons: {} }] }));
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'packages/server/src/main.ts')], {
        cwd: root,
        env: { ...process.env, FLOTILLA_BILLING: 'on', FLOTILLA_PLANS_FILE: file, FLOTILLA_DATA_DIR: dir },
      });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(2);
      expect(err).toContain(`Invalid plans file ${file}`);
      expect(err).toContain('plans.0.monthlyPrice');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
