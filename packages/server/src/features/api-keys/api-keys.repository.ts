import type { Db } from '../../infra/db/db.js';

// The API keys feature's SQL. Keys are stored as their hash; every function takes the pool
// or a transaction first.

export interface NewApiKey {
  keyHash: string;
  name: string | null;
  description: string | null;
  expiry: Date | null;
  /** The actor the key acts as: the user's, or the fleet's for a provisioning key. */
  actorId: number;
}

export async function insertApiKey(db: Db, key: NewApiKey): Promise<void> {
  await db.query('INSERT INTO api_key (key, name, description, expiry_date, is_of__actor) VALUES ($1, $2, $3, $4, $5)', [
    key.keyHash,
    key.name,
    key.description,
    key.expiry,
    key.actorId,
  ]);
}

/** Whether any of the keys `ids` belongs to another actor than `actorId`. */
export async function anyKeyOfOtherActor(db: Db, ids: readonly number[], actorId: number | null): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM api_key WHERE id = ANY($1::int[]) AND is_of__actor IS DISTINCT FROM $2 LIMIT 1', [ids, actorId]);
  return rowCount > 0;
}
