import { DEFAULT_POLL_INTERVAL_MS, HEARTBEAT_GRACE, heartbeatState } from '@flotilla/model';
import type { Db } from '../db/db.js';
import type { JobDefinition } from './job-runner.js';

/**
 * Rule (dialect §4.4, spec 2 §9): a device that stops polling goes from `online` to
 * `timeout` to `offline`. Polls set `online` (device API); this sweep moves devices on from
 * `api_heartbeat_at` with the model's `heartbeatState`, the one definition of the windows.
 *
 * Each device is judged on its own poll interval: the `BALENA_SUPERVISOR_POLL_INTERVAL`
 * (or legacy `RESIN_SUPERVISOR_POLL_INTERVAL`) config variable in ms, the device's value
 * overriding the fleet's, BALENA_ winning over RESIN_ on the same level; the default when
 * neither is set or the value chosen is not a whole number of at least a second (the agent
 * ignores such values too).
 */
export const HEARTBEAT_SWEEP_JOB = 'heartbeat-sweep';

const POLL_INTERVAL_VARS = ['BALENA_SUPERVISOR_POLL_INTERVAL', 'RESIN_SUPERVISOR_POLL_INTERVAL'];
const MIN_POLL_INTERVAL_MS = 1_000;

interface Candidate {
  id: number;
  api_heartbeat_at: Date;
  api_heartbeat_state: string;
  /** The stored time as text: exact to the microsecond, for the guard in the UPDATE. */
  at_text: string;
  poll_ms: number;
}

/**
 * Sweeps once as of `now`; returns how many devices changed state. `pollIntervalMs` is the
 * interval of devices without a (valid) poll-interval config variable.
 */
export async function sweepHeartbeats(db: Db, now: Date, pollIntervalMs = DEFAULT_POLL_INTERVAL_MS): Promise<number> {
  // Only devices past their online window can change; the scan is over devices still
  // marked online/timeout, which the sweep keeps few, with two keyed look-ups each.
  const { rows } = await db.query<Candidate>(
    `WITH c AS (
       SELECT d.id, d.api_heartbeat_at, d.api_heartbeat_state, d.api_heartbeat_at::text AS at_text,
              COALESCE(
                (SELECT v.value FROM device_config_variable v WHERE v.device = d.id AND v.name = ANY($3::text[])
                  ORDER BY v.name = $3[1] DESC LIMIT 1),
                (SELECT v.value FROM application_config_variable v WHERE v.application = d.belongs_to__application AND v.name = ANY($3::text[])
                  ORDER BY v.name = $3[1] DESC LIMIT 1)
              ) AS configured
         FROM device d
        WHERE d.api_heartbeat_state IN ('online', 'timeout') AND d.api_heartbeat_at IS NOT NULL
     ), p AS (
       SELECT c.*, CASE WHEN c.configured ~ '^[0-9]{1,12}$' AND c.configured::bigint >= $4 THEN c.configured::float8 ELSE $2::float8 END AS poll_ms
         FROM c
     )
     SELECT id, api_heartbeat_at, api_heartbeat_state, at_text, poll_ms FROM p
      WHERE api_heartbeat_at < $1::timestamptz - make_interval(secs => floor(poll_ms * (1 + $5::float8)) / 1000)`,
    [now, pollIntervalMs, POLL_INTERVAL_VARS, MIN_POLL_INTERVAL_MS, HEARTBEAT_GRACE],
  );
  const changes = rows
    .map((d) => ({ d, state: heartbeatState(d.api_heartbeat_at, Number(d.poll_ms), now) }))
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
