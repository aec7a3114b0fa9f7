import type { ActionRunState, LongAction } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

/** The actions service's hand-written SQL (migration 0028: `device_action_run`). */

export interface RunRow {
  run_id: string;
  status: ActionRunState;
  stdout: unknown;
  error: string | null;
  started_at: Date;
  /** In progress past its deadline: the process waiting for it stopped. */
  expired: boolean;
}

const COLUMNS = `run_id, status, stdout, error, started_at, (status IN ('in_progress', 'configuring') AND deadline < now()) AS expired`;

export async function selectRun(db: Db, deviceId: number, action: LongAction): Promise<RunRow | null> {
  const { rows } = await db.query<RunRow>(`SELECT ${COLUMNS} FROM device_action_run WHERE device = $1 AND action = $2`, [deviceId, action]);
  return rows[0] ?? null;
}

/**
 * Starts a run unless one is under way (and not past its deadline): one statement, so two
 * POSTs at once (on one process or two) start one run and the other gets null (409).
 */
export async function claimRun(db: Db, run: { deviceId: number; action: LongAction; runId: string; params: object; deadlineMs: number }): Promise<RunRow | null> {
  const { rows } = await db.query<RunRow>(
    `INSERT INTO device_action_run AS r (device, action, run_id, status, params, stdout, error, started_at, deadline, finished_at)
     VALUES ($1, $2, $3, 'in_progress', $4, NULL, NULL, now(), now() + make_interval(secs => $5::double precision / 1000), NULL)
     ON CONFLICT (device, action) DO UPDATE
       SET run_id = EXCLUDED.run_id, status = 'in_progress', params = EXCLUDED.params, stdout = NULL, error = NULL,
           started_at = EXCLUDED.started_at, deadline = EXCLUDED.deadline, finished_at = NULL
       WHERE r.status NOT IN ('in_progress', 'configuring') OR r.deadline < now()
     RETURNING ${COLUMNS}`,
    [run.deviceId, run.action, run.runId, JSON.stringify(run.params), run.deadlineMs],
  );
  return rows[0] ?? null;
}

/** Ends run `runId` (only while it is still in progress: a late answer to a replaced run changes nothing). */
export async function finishRun(db: Db, runId: string, result: { status: 'done' | 'error'; stdout: unknown; error: string | null }): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE device_action_run SET status = $2, stdout = $3, error = $4, finished_at = now()
      WHERE run_id = $1 AND status IN ('in_progress', 'configuring')`,
    [runId, result.status, result.stdout === null ? null : JSON.stringify(result.stdout), result.error],
  );
  return rowCount > 0;
}
