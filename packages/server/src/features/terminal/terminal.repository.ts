import type { Db } from '../../infra/db/db.js';

/** The terminal audit trail's SQL (table `terminal_session`, migration 0029). */

export interface SessionStart {
  session: string;
  deviceId: number;
  userId: number | null;
  username: string;
  apiKeyId: number | null;
  target: string;
  serverInstance: string;
}

/** The name the audit trail records for a user. */
export async function usernameOf(db: Db, userId: number): Promise<string | undefined> {
  const { rows } = await db.query<{ username: string }>('SELECT username FROM "user" WHERE id = $1', [userId]);
  return rows[0]?.username;
}

export async function insertSession(db: Db, s: SessionStart): Promise<void> {
  await db.query(
    `INSERT INTO terminal_session (session, device, "user", username, api_key, target, server_instance)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [s.session, s.deviceId, s.userId, s.username, s.apiKeyId, s.target, s.serverInstance],
  );
}

/** Records the end once (a second end of the same session changes nothing). */
export async function endSession(db: Db, session: string, reason: string): Promise<void> {
  await db.query('UPDATE terminal_session SET ended_at = now(), end_reason = $2 WHERE session = $1 AND ended_at IS NULL', [session, reason.slice(0, 500)]);
}

/** The sessions this process relays are alive: their rows' seen_at moves. */
export async function touchSessions(db: Db, serverInstance: string): Promise<void> {
  await db.query('UPDATE terminal_session SET seen_at = now() WHERE server_instance = $1 AND ended_at IS NULL', [serverInstance]);
}

/** Closes the open rows no live process touched for `staleMs` (their process died); answers how many. */
export async function closeStaleSessions(db: Db, staleMs: number, reason: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `UPDATE terminal_session SET ended_at = seen_at, end_reason = $2
      WHERE ended_at IS NULL AND seen_at < now() - make_interval(secs => $1::double precision / 1000) RETURNING id`,
    [staleMs, reason],
  );
  return rows.length;
}
