import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { E2E_PORTS } from './ports';

/**
 * Direct SQL against the e2e server's database, for arranging history the API rightly refuses
 * to create today (e.g. a fleet made before its device type was discontinued). Never used to
 * check results: assertions go through the dashboard or the API.
 */
export function databaseUrl(): string {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const dataDir = process.env.FLOTILLA_E2E_DATA_DIR;
  if (!dataDir) throw new Error('FLOTILLA_E2E_DATA_DIR is not set (playwright.config.ts sets it)');
  const password = readFileSync(join(dataDir, 'postgres-password'), 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${E2E_PORTS.embeddedPg}/flotilla`;
}

export async function arrangeSql(text: string, params: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    await client.query(text, params);
  } finally {
    await client.end();
  }
}
