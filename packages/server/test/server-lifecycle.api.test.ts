import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDemo } from '../../../scripts/demo-fleet.mjs';
import { alive } from '../src/infra/db/embedded.js';
import { freePort } from './support/net.js';
import { childrenOf } from './support/processes.js';

// The real `main.ts` with its embedded PostgreSQL, as `npm start` runs it, through the events
// a machine sees: a second server beside it, kill -9, Ctrl-C with devices connected. No
// FLOTILLA_EMBEDDED_PG_PORT anywhere: the embedded server must not need one.
const root = new URL('../../../', import.meta.url).pathname;
const ADMIN_PASSWORD = 'lifecycle-admin-pw';

interface Running {
  child: ChildProcess;
  output: () => string;
  port: number;
  api: string;
}

async function start(dataDir: string): Promise<Running> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: '', PORT: String(port), LOG_LEVEL: 'warn', FLOTILLA_DATA_DIR: dataDir, FLOTILLA_ADMIN_PASSWORD: ADMIN_PASSWORD };
  delete env.FLOTILLA_EMBEDDED_PG_PORT;
  // Its own process group, as a terminal's foreground job: a Ctrl-C signals the whole group.
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'packages/server/src/main.ts')], {
    cwd: root,
    detached: true,
    env,
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 120_000);
    child.stdout!.on('data', () => {
      if (out.includes('Press Ctrl-C to stop.')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  return { child, output: () => out, port, api: `http://127.0.0.1:${port}` };
}

/** Its exit code once its output has been read to the end ('close', not 'exit'). */
const exitOf = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));

async function stop(r: Running): Promise<number | null> {
  const exit = exitOf(r.child);
  r.child.kill('SIGTERM');
  return exit;
}

async function adminCanSignIn(r: Running): Promise<void> {
  const res = await fetch(`${r.api}/login_`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin@flotilla.local', password: ADMIN_PASSWORD }) });
  expect(res.status).toBe(200);
}

function postmasterPid(dataDir: string): number {
  return Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
}


async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Error-level lines: pino's level 50/60 JSON, stack traces, "error" words. */
const errorLines = (out: string) => out.split('\n').filter((l) => /"level":(50|60)|\bError\b|^\s+at |could not/.test(l));

describe('server lifecycle with the embedded PostgreSQL', () => {
  const dirs: string[] = [];
  const leftovers: number[] = [];
  const newDir = async () => {
    const d = await mkdtemp(join(tmpdir(), 'flotilla-life-'));
    dirs.push(d);
    return d;
  };
  afterAll(async () => {
    for (const pid of leftovers) if (alive(pid)) process.kill(pid, 'SIGQUIT');
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('two servers with their own data directories run side by side without FLOTILLA_EMBEDDED_PG_PORT', { timeout: 300_000 }, async () => {
    const [a, b] = await Promise.all([newDir(), newDir()]);
    const [one, two] = await Promise.all([start(a), start(b)]);
    try {
      await adminCanSignIn(one);
      await adminCanSignIn(two);
      // No TCP port: PostgreSQL listens on a socket in each data directory.
      for (const d of [a, b]) {
        const lines = readFileSync(join(d, 'postgres', 'postmaster.pid'), 'utf8').split('\n');
        expect(lines[4]).toBe(join(d, 'run'));
        expect(lines[5]).toBe('');
      }
    } finally {
      leftovers.push(postmasterPid(a), postmasterPid(b));
      expect(await stop(one)).toBe(0);
      expect(await stop(two)).toBe(0);
    }
  });

  const shared = newDir();

  it('after kill -9 of the server its PostgreSQL stops and the next start works', { timeout: 300_000 }, async () => {
    const dir = await shared;
    const first = await start(dir);
    const pg = postmasterPid(dir);
    leftovers.push(pg);
    const exit = exitOf(first.child);
    // The server's whole process group, as a test runner's teardown or a timeout kills it.
    process.kill(-first.child.pid!, 'SIGKILL');
    await exit;
    await until('the orphaned PostgreSQL stops', () => !alive(pg), 30_000);

    const second = await start(dir);
    await adminCanSignIn(second);
    leftovers.push(postmasterPid(dir));
    expect(await stop(second)).toBe(0);
  });

  it('a start finds a PostgreSQL left running on its data directory by a dead server, stops it and starts', { timeout: 300_000 }, async () => {
    const dir = await shared;
    const first = await start(dir);
    const pg = postmasterPid(dir);
    leftovers.push(pg);
    const exit = exitOf(first.child);
    // The server and its watchdog die at once (the machine's OOM killer, say).
    const watchdogs = childrenOf(first.child.pid!).filter((pid) => pid !== pg);
    expect(watchdogs).toHaveLength(1);
    for (const pid of [first.child.pid!, ...watchdogs]) process.kill(pid, 'SIGKILL');
    await exit;
    await new Promise((r) => setTimeout(r, 500));
    expect(alive(pg)).toBe(true);

    const second = await start(dir);
    await adminCanSignIn(second);
    expect(alive(pg)).toBe(false);
    expect(readFileSync(join(dir, 'logs', 'flotilla.log'), 'utf8')).toContain(`stopping the embedded PostgreSQL (pid ${pg}) left running`);
    leftovers.push(postmasterPid(dir));
    expect(await stop(second)).toBe(0);
  });

  it('a second server on a data directory in use refuses to start and leaves the first one running', { timeout: 300_000 }, async () => {
    const dir = await shared;
    const first = await start(dir);
    leftovers.push(postmasterPid(dir));
    await expect(start(dir)).rejects.toThrow(/another Flotilla server \(pid \d+\) is using/);
    await adminCanSignIn(first);
    expect(await stop(first)).toBe(0);
  });

  it('Ctrl-C with connected devices: an ordered stop, no error lines, every disconnect recorded', { timeout: 300_000 }, async () => {
    const dir = await shared;
    const server = await start(dir);
    leftovers.push(postmasterPid(dir));
    const demo = await startDemo({ root, count: 3, api: server.api, dataDir: dir, releaseDelayMs: 3_600_000, stdio: 'ignore' });
    demo.seeded.cancel();
    const devices = async (api: string, token: string) => {
      const res = await fetch(`${api}/v7/device?$select=uuid,is_online&$filter=belongs_to__application eq ${demo.seeded.fleet}`, { headers: { authorization: `Bearer ${token}` } });
      return ((await res.json()) as { d: { uuid: string; is_online: boolean }[] }).d;
    };
    try {
      await until('3 devices are online over their cloud links', async () => (await devices(server.api, demo.seeded.token)).filter((d) => d.is_online).length === 3, 60_000);
      const exit = exitOf(server.child);
      // A terminal's Ctrl-C: SIGINT to every process of the foreground group.
      process.kill(-server.child.pid!, 'SIGINT');
      expect(await exit).toBe(0);
    } finally {
      demo.child.kill('SIGKILL');
    }
    expect(errorLines(server.output())).toEqual([]);
    expect(server.output()).toContain('embedded PostgreSQL stopped');

    const again = await start(dir);
    leftovers.push(postmasterPid(dir));
    const { email, password } = JSON.parse(readFileSync(join(dir, 'demo-user.json'), 'utf8')) as { email: string; password: string };
    const token = await (await fetch(`${again.api}/login_`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: email, password }) })).text();
    const after = await devices(again.api, token);
    expect(after).toHaveLength(3);
    expect(after.filter((d) => d.is_online)).toEqual([]);
    expect(await stop(again)).toBe(0);
    expect(existsSync(join(dir, 'postgres', 'postmaster.pid'))).toBe(false);
  });
});
