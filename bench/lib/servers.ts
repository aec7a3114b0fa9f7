import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChildServer } from './child.js';
import { freePort } from './ports.js';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const ADMIN_PASSWORD = 'bench-admin-password';

const verbose = process.env.BENCH_VERBOSE === '1';

/**
 * Where the embedded PostgreSQL of `dataDir` listens, as `npm start` runs it: its Unix socket
 * (TCP on 127.0.0.1 only when the socket path would be too long), read from `postmaster.pid`
 * (line 4 the port, line 5 the socket directory, line 6 the TCP address). The server talks to
 * it the same way; a bench on TCP measured a server that `npm start` does not run (each
 * statement through loopback TCP costs the server and PostgreSQL more than through the socket).
 */
async function embeddedDatabaseUrl(dataDir: string, password: string): Promise<string> {
  const lines = (await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n');
  const [port, socketDir, address] = [lines[3]?.trim(), lines[4]?.trim(), lines[5]?.trim()];
  const user = `postgres:${encodeURIComponent(password)}`;
  if (socketDir) return `postgres://${user}@localhost:${port}/flotilla?host=${encodeURIComponent(socketDir)}`;
  return `postgres://${user}@${address || '127.0.0.1'}:${port}/flotilla`;
}

/** The bare node:http baseline, in its own process. */
export async function startBaseline(): Promise<ChildServer> {
  const port = await freePort();
  return ChildServer.start({
    name: 'baseline',
    args: ['--import', 'tsx', 'bench/baseline-server.ts'],
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(port) },
    baseUrl: `http://127.0.0.1:${port}`,
    readyPath: '/',
    readyTimeoutMs: 30_000,
    verbose,
  });
}

export interface FlotillaServer {
  server: ChildServer;
  /** The embedded database, for seeding with SQL (bench/lib/seed.ts) and EXPLAIN. */
  databaseUrl: string;
  /** With `inspect`: the server's inspector (http://127.0.0.1:port), for bench/lib/inspector.ts. */
  inspectUrl?: string;
  /** Stops the server (and with it its embedded PostgreSQL), then removes its data dir. */
  stop(): Promise<string>;
}

/**
 * The real server, started as `npm start` would (`node packages/server/dist/main.mjs`, the bundle
 * `npm run bench` builds first),
 * with its embedded PostgreSQL in a fresh temporary data directory.
 */
export async function startFlotilla({ inspect = false, onLine }: { inspect?: boolean; onLine?: (line: string) => void } = {}): Promise<FlotillaServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'flotilla-bench-'));
  const removeDataDir = () => rm(dataDir, { recursive: true, force: true });
  const port = await freePort();
  // The cloud-link memory phase collects garbage before reading RSS (inspector protocol).
  const inspectPort = inspect ? await freePort() : undefined;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    FLOTILLA_DATA_DIR: dataDir,
    FLOTILLA_ADMIN_PASSWORD: ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
  };
  // Always the embedded database and the in-process bus, whatever the caller's shell says.
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  // Its own address: image locations name it as the registry host (`127.0.0.1:<port>/v2/…`),
  // which the rollout phase's engine pulls from over plain HTTP.
  env.FLOTILLA_PUBLIC_URL = `http://127.0.0.1:${port}`;
  // BENCH_SERVER_ENV: extra variables for the server (and its embedded PostgreSQL), `NAME=value`
  // separated by spaces, e.g. `LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2`.
  for (const pair of process.env.BENCH_SERVER_ENV?.split(/\s+/).filter(Boolean) ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`BENCH_SERVER_ENV: "${pair}" is not NAME=value`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }

  let server: ChildServer;
  try {
    server = await ChildServer.start({
      name: 'flotilla',
      // BENCH_SERVER_NODE_ARGS: extra node flags for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
      args: ['--enable-source-maps', ...(inspectPort ? [`--inspect=127.0.0.1:${inspectPort}`] : []), ...(process.env.BENCH_SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []), 'packages/server/dist/main.mjs'],
      cwd: REPO_ROOT,
      env,
      baseUrl: `http://127.0.0.1:${port}`,
      readyPath: '/ping',
      readyTimeoutMs: 180_000,
      verbose,
      ...(onLine ? { onLine } : {}),
    });
  } catch (err) {
    await removeDataDir();
    throw err;
  }
  const password = (await readFile(join(dataDir, 'postgres-password'), 'utf8')).trim();
  return {
    server,
    ...(inspectPort ? { inspectUrl: `http://127.0.0.1:${inspectPort}` } : {}),
    databaseUrl: await embeddedDatabaseUrl(dataDir, password),
    async stop() {
      const how = await server.stop();
      await removeDataDir();
      return how;
    },
  };
}
