import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../../support/net.js';

/*
 * The pieces of a multi-node installation as separate processes (issue 21's system tier):
 * Debian's PostgreSQL 15 (not the embedded one), one Redis, HAProxy with the shipped
 * deploy/haproxy/haproxy.cfg, and the built server (packages/server/dist/main.mjs) as nodes.
 * Every process is started here and killed by its own pid in `stop()`.
 */

const run = promisify(execFile);
export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../../..');
export const HAPROXY_CFG = join(REPO_ROOT, 'deploy/haproxy/haproxy.cfg');
const PG_BIN = '/usr/lib/postgresql/15/bin';

/** A child process whose output tail is kept for error messages. */
export class Proc {
  private tail: string[] = [];
  readonly exited: Promise<void>;
  exitInfo: string | undefined;

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
  ) {
    this.exited = new Promise((done) =>
      child.once('exit', (code, signal) => {
        this.exitInfo = signal ? `killed by ${signal}` : `exit code ${code}`;
        done();
      }),
    );
    for (const s of [child.stdout, child.stderr]) {
      s?.setEncoding('utf8');
      s?.on('data', (chunk: string) => {
        if (process.env.FLOTILLA_SYSTEM_VERBOSE === '1') process.stderr.write(chunk.replace(/^(?=.)/gm, `[${name}] `));
        this.tail.push(...chunk.split('\n').filter(Boolean));
        if (this.tail.length > 200) this.tail.splice(0, this.tail.length - 200);
      });
    }
  }

  static spawn(name: string, file: string, args: string[], env: NodeJS.ProcessEnv, cwd = REPO_ROOT): Proc {
    return new Proc(name, spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  }

  get running(): boolean {
    return this.exitInfo === undefined;
  }

  output(lines = 40): string {
    return this.tail.slice(-lines).join('\n');
  }

  /** Lines printed so far that match `re`. */
  lines(re: RegExp): string[] {
    return this.tail.filter((l) => re.test(l));
  }

  /** kill -9, and wait for the exit. */
  async kill9(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM, SIGKILL after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Thrown by a probe to stop waiting at once (a process died). */
export class GiveUp extends Error {}

/** Polls `probe` until it answers truthy; throws naming `what` after `ms` (or a probe's GiveUp). */
export async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined | null | false>, everyMs = 200): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe().catch((err: unknown) => {
      if (err instanceof GiveUp) throw err;
      return undefined;
    });
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

async function answers(url: string): Promise<boolean> {
  return fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    async (res) => {
      await res.body?.cancel();
      return res.status === 200;
    },
    () => false,
  );
}

export interface Postgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * Debian's PostgreSQL 15 in a temporary cluster owned by the `postgres` system user (we run as
 * root, which initdb refuses), on a free TCP port on loopback with its socket in the temp dir,
 * trust authentication (loopback only), and database `flotilla`.
 */
export async function startPostgres(): Promise<Postgres> {
  const dir = await mkdtemp(join(tmpdir(), 'flotilla-system-pg-'));
  const data = join(dir, 'data');
  await mkdir(data);
  await run('sh', ['-c', 'id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/sh postgres']);
  const { stdout: ids } = await run('id', ['-u', 'postgres']);
  const { stdout: gids } = await run('id', ['-g', 'postgres']);
  await chmod(dir, 0o755);
  await chown(dir, Number(ids.trim()), Number(gids.trim()));
  await chown(data, Number(ids.trim()), Number(gids.trim()));
  const port = await freePort();
  const as = (bin: string, args: string[]) => run('runuser', ['-u', 'postgres', '--', join(PG_BIN, bin), ...args], { cwd: dir });
  await as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  await as('pg_ctl', ['-D', data, '-l', join(dir, 'postgres.log'), '-o', options, '-w', '-t', '60', 'start']);
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE flotilla');
  await admin.end();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/flotilla`,
    async stop() {
      await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface Redis {
  url: string;
  proc: Proc;
}

/** One redis-server on a free loopback port, nothing persisted. */
export async function startRedis(): Promise<Redis> {
  const port = await freePort();
  const proc = Proc.spawn('redis', '/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], process.env);
  await until('redis', 10_000, async () => {
    const { stdout } = await run('redis-cli', ['-p', String(port), 'ping']);
    return stdout.trim() === 'PONG';
  });
  return { url: `redis://127.0.0.1:${port}`, proc };
}

/** The environment the shipped HAProxy file reads, for `nodes` (host:port each). */
export function haproxyEnv(bind: string, nodes: string[]): Record<string, string> {
  return {
    FLOTILLA_HAPROXY_BIND: bind,
    ...Object.fromEntries(nodes.map((n, i) => [`FLOTILLA_NODE_${i + 1}`, n])),
  };
}

/** HAProxy in the foreground (-db) with deploy/haproxy/haproxy.cfg. */
export async function startHaproxy(port: number, nodes: string[]): Promise<Proc> {
  const proc = Proc.spawn('haproxy', '/usr/sbin/haproxy', ['-db', '-f', HAPROXY_CFG], { ...process.env, ...haproxyEnv(`127.0.0.1:${port}`, nodes) });
  await until('haproxy', 15_000, async () => {
    if (!proc.running) throw new GiveUp(`haproxy exited (${proc.exitInfo}):\n${proc.output()}`);
    return answers(`http://127.0.0.1:${port}/ping`);
  });
  return proc;
}

export interface NodeSettings {
  name: string;
  port: number;
  dataDir: string;
  env: Record<string, string>;
}

/** A Flotilla node: `node packages/server/dist/main.mjs`, ready once its own /ping answers. */
export async function startNode(s: NodeSettings): Promise<Proc> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...s.env, PORT: String(s.port), HOST: '127.0.0.1', FLOTILLA_DATA_DIR: s.dataDir };
  const proc = Proc.spawn(s.name, process.execPath, ['--enable-source-maps', 'packages/server/dist/main.mjs'], env);
  await until(`${s.name} /ping`, 120_000, async () => {
    if (!proc.running) throw new GiveUp(`${s.name} exited (${proc.exitInfo}):\n${proc.output()}`);
    return answers(`http://127.0.0.1:${s.port}/ping`);
  });
  return proc;
}
