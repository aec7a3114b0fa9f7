import { DEFAULT_POLL_INTERVAL_MS, HEARTBEAT_GRACE, heartbeatState } from '@flotilla/model';
import type { Db } from '../db/db.js';
import type { JobDefinition } from './job-runner.js';

/**
 * Rule (dialect §4.4, spec 2 §9): a device that stops polling goes from `online` to
 * `timeout` to `offline`. Polls set `online` (device API); this sweep moves devices on from
 * `api_heartbeat_at` with the model's `heartbeatState`, the one definition of the windows.
 *
 * Every device is judged on the default poll interval: a per-device interval (the
 * BALENA_SUPERVISOR_POLL_INTERVAL config variable) is not read here yet.
 */
export const HEARTBEAT_SWEEP_JOB = 'heartbeat-sweep';

interface Candidate {
  id: number;
  api_heartbeat_at: Date;
  api_heartbeat_state: string;
  /** The stored time as text: exact to the microsecond, for the guard in the UPDATE. */
  at_text: string;
}

/** Sweeps once as of `now`; returns how many devices changed state. */
export async function sweepHeartbeats(db: Db, now: Date, pollIntervalMs = DEFAULT_POLL_INTERVAL_MS): Promise<number> {
  // Only devices past the online window can change; the index-free scan is over devices
  // still marked online/timeout, which the sweep keeps few.
  const onlineWindowMs = Math.floor(pollIntervalMs * (1 + HEARTBEAT_GRACE));
  const { rows } = await db.query<Candidate>(
    `SELECT id, api_heartbeat_at, api_heartbeat_state, api_heartbeat_at::text AS at_text FROM device
      WHERE api_heartbeat_state IN ('online', 'timeout') AND api_heartbeat_at IS NOT NULL
        AND api_heartbeat_at < $1::timestamptz - make_interval(secs => $2::double precision / 1000)`,
    [now, onlineWindowMs],
  );
  const changes = rows
    .map((d) => ({ d, state: heartbeatState(d.api_heartbeat_at, pollIntervalMs, now) }))
    .filter(({ d, state }) => state !== d.api_heartbeat_state && (state === 'timeout' || state === 'offline'));
  if (changes.length === 0) return 0;
  // A poll that lands meanwhile moves api_heartbeat_at: such a device is left as it is.
  const { rowCount } = await db.query(
    `UPDATE device d SET api_heartbeat_state = c.state
       FROM unnest($1::int[], $2::text[], $3::timestamptz[]) AS c(id, state, at)
      WHERE d.id = c.id AND d.api_heartbeat_at = c.at`,
    [changes.map((c) => c.d.id), changes.map((c) => c.state), changes.map((c) => c.d.at_text)],
  );
  return rowCount;
}

/** Every minute (the finest cron slot), on whichever process takes the job. */
export function heartbeatSweepJob(db: Db, clock: () => Date = () => new Date()): JobDefinition {
  return {
    name: HEARTBEAT_SWEEP_JOB,
    cron: '* * * * *',
    run: async () => {
      await sweepHeartbeats(db, clock());
    },
  };
}
