import { randomBytes } from 'node:crypto';
import type { Db } from '../db/db.js';
import { storedJwtSecret } from './auth.repository.js';

/**
 * The JWT signing key: FLOTILLA_JWT_SECRET when set, otherwise one generated on the first
 * start and kept in the database, so every server node (and every restart) shares it.
 */
export async function resolveJwtSecret(db: Db, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  return storedJwtSecret(db, randomBytes(48).toString('base64url'));
}
