import { randomBytes } from 'node:crypto';
import type { Db } from '../db/db.js';

/**
 * The JWT signing key: FLOTILLA_JWT_SECRET when set, otherwise one generated on the first
 * start and kept in the database, so every server node (and every restart) shares it.
 */
export async function resolveJwtSecret(db: Db, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  await db.query(`INSERT INTO flotilla_secret (name, value) VALUES ('jwt', $1) ON CONFLICT (name) DO NOTHING`, [
    randomBytes(48).toString('base64url'),
  ]);
  const { rows } = await db.query<{ value: string }>(`SELECT value FROM flotilla_secret WHERE name = 'jwt'`);
  return rows[0]!.value;
}
