import { retryConflicts, type Db } from '../../infra/db/db.js';
import { updateApiHeartbeats } from './state-report.repository.js';

/**
 * Records target-state polls as API heartbeats (dialect §4.4; issue 5 contract): each poll
 * only notes the device and the time; one UPDATE per second writes them all
 * (`api_heartbeat_at`, `api_heartbeat_state = 'online'`, and `last_connectivity_event` when
 * the device was not online).
 */
/** Tries of one heartbeat UPDATE rolled back by a deadlock or a serialization failure. */
const HEARTBEAT_ATTEMPTS = 3;

export class HeartbeatBatch {
  private pending = new Map<number, Date>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly intervalMs = 1_000,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  record(deviceId: number, at = new Date()): void {
    this.pending.set(deviceId, at);
  }

  /** Writes what is pending (also on close). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      const ids = [...batch.keys()];
      const times = ids.map((id) => batch.get(id)!.toISOString());
      // A deadlock victim or a serialization failure wrote nothing: the batch is written again
      // (else those devices' polls are lost and the sweep may call them offline).
      try {
        await retryConflicts(() => updateApiHeartbeats(this.db, ids, times), HEARTBEAT_ATTEMPTS);
      } catch (err) {
        this.onError(err);
      }
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
