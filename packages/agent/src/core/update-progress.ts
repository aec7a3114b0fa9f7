/**
 * The update a device goes through when its target release changes: downloading (with a
 * percentage) → applying changes → done. This agent runs no containers, so the phases are
 * simulated from elapsed time: a pure function of the clock, which keeps the simulator's
 * per-device state to a handful of numbers and makes the machine testable without timers.
 */

export type UpdatePhase = 'downloading' | 'applying changes' | 'done';

export interface UpdatePlan {
  fromCommit: string | null;
  toCommit: string;
  startedAt: number;
  downloadMs: number;
  applyMs: number;
}

export interface UpdateSnapshot {
  phase: UpdatePhase;
  /** 0–100 while downloading, 100 afterwards. */
  progress: number;
}

export function planUpdate(fromCommit: string | null, toCommit: string, startedAt: number, downloadMs: number, applyMs: number): UpdatePlan {
  return { fromCommit, toCommit, startedAt, downloadMs: Math.max(0, downloadMs), applyMs: Math.max(0, applyMs) };
}

/** Where `plan` stands at `now`. */
export function updateAt(plan: UpdatePlan, now: number): UpdateSnapshot {
  const elapsed = Math.max(0, now - plan.startedAt);
  if (elapsed < plan.downloadMs) {
    return { phase: 'downloading', progress: Math.min(99, Math.floor((100 * elapsed) / plan.downloadMs)) };
  }
  if (elapsed < plan.downloadMs + plan.applyMs) return { phase: 'applying changes', progress: 100 };
  return { phase: 'done', progress: 100 };
}

/** When the phase or percentage shown next changes (for scheduling the next report), or null when done. */
export function nextUpdateEventAt(plan: UpdatePlan, now: number, stepPercent = 10): number | null {
  const snap = updateAt(plan, now);
  if (snap.phase === 'done') return null;
  if (snap.phase === 'applying changes') return plan.startedAt + plan.downloadMs + plan.applyMs;
  const nextPct = (Math.floor(snap.progress / stepPercent) + 1) * stepPercent;
  const at = plan.startedAt + Math.ceil((plan.downloadMs * nextPct) / 100);
  return Math.min(Math.max(at, now + 1), plan.startedAt + plan.downloadMs);
}

/**
 * The device `status` field shown before `overall_status` is computed: balena supervisors
 * report 'Downloading' and 'Updating' (applying) and 'Idle' otherwise.
 */
export function deviceStatusFor(snap: UpdateSnapshot | null): 'Idle' | 'Downloading' | 'Updating' {
  if (snap === null || snap.phase === 'done') return 'Idle';
  return snap.phase === 'downloading' ? 'Downloading' : 'Updating';
}
