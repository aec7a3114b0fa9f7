import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile } from 'node:fs/promises';
import { createFileOnce } from '../files/write-once.js';
import { join } from 'node:path';
import type { Db } from '../db/db.js';
import { SecretBox } from './secret-box.js';

export const SECRETS_KEY_FILE = 'secrets.key';

/** The database and this server disagree on the key: starting would lock users out. */
export class SecretsKeyMismatchError extends Error {
  constructor() {
    super(
      "the secrets key does not match the one this database's secrets were sealed with. Every server of one database needs the same FLOTILLA_SECRETS_KEY (or, with one server, the same data directory's secrets.key).",
    );
    this.name = 'SecretsKeyMismatchError';
  }
}

/**
 * The key that seals stored secrets (TOTP): FLOTILLA_SECRETS_KEY when set, otherwise one
 * generated on the first start into `<dataDir>/secrets.key` (mode 0600) — outside the
 * database, so a copy of the database alone does not open them. The database keeps a check
 * value of the first key it saw; a server with another key refuses to start instead of
 * failing every two-factor sign-in.
 */
export async function resolveSecretsBox(db: Db, configured: string | undefined, dataDir: string): Promise<SecretBox> {
  const box = new SecretBox(configured ?? (await keyFile(dataDir)));
  await db.query(`INSERT INTO flotilla_secret (name, value) VALUES ('secrets-key-check', $1) ON CONFLICT (name) DO NOTHING`, [box.checkValue]);
  const { rows } = await db.query<{ value: string }>(`SELECT value FROM flotilla_secret WHERE name = 'secrets-key-check'`);
  if (rows[0]?.value !== box.checkValue) throw new SecretsKeyMismatchError();
  return box;
}

async function keyFile(dataDir: string): Promise<string> {
  const path = join(dataDir, SECRETS_KEY_FILE);
  const existing = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (existing !== undefined) return existing.trim();
  await mkdir(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  // Never overwrites a key another process wrote meanwhile, and never leaves a part of one.
  await createFileOnce(path, `${key}\n`);
  await chmod(path, 0o600);
  return (await readFile(path, 'utf8')).trim();
}
