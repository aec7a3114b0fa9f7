import type { Db } from '../../infra/db/db.js';
import {
  applyStateReport,
  checkReportApp,
  checkReportBody,
  lockReportDevices,
  planReport,
  writeReportApps,
  writeReportFields,
  type ReportWrite,
} from './state-report.js';

interface Pending {
  deviceId: number;
  body: Record<string, unknown>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit of state reports (issue 5: beyond one durable commit per request). Reports
 * that arrive while a transaction is being written wait and go together in the next one:
 *
 * - one transaction locks every device of the group, writes all their device columns in
 *   one statement and all their installs in a few (`writeReportApps`);
 * - a request is answered only once the transaction holding its write has committed;
 * - a report that is refused (403 another uuid, 400 a bad value, checked before anything is
 *   written) fails alone; the rest of the group still commits;
 * - when the grouped statement or the commit fails, every report of the group is written
 *   again on its own (`applyStateReport`), so a failing write fails only its request;
 * - at most one report per device in a group, and none for a device whose report is in a
 *   transaction still running: a device's later report waits for a later group, so reports of
 *   one device are applied in arrival order;
 * - up to `maxConcurrent` groups are written at once, on their own connections. A group's time
 *   is mostly round trips, so under load one group at a time left reports queueing for minutes while the
 *   pool sat idle (issue 21's soak: 10,000 devices, report p99 197 s). Groups lock their device
 *   rows in id order, as the heartbeat batch does, so they cannot deadlock on them, and the
 *   installs they write are per device, so concurrent groups touch disjoint rows.
 *
 * No timer: a group closes when a transaction slot is free, so a lone report waits for
 * nobody, and under load each transaction carries what queued meanwhile.
 */
export class StateReportBatch {
  private queue: Pending[] = [];
  /** Groups being written. */
  private running = 0;
  /** Devices whose report is in a group being written. */
  private readonly inFlight = new Set<number>();
  private scheduled = false;

  constructor(
    private readonly db: Db,
    private readonly maxGroup = 500,
    private readonly maxConcurrent = 3,
  ) {}

  /** Resolves once the report is durable; rejects with its own error only. */
  submit(deviceId: number, body: unknown): Promise<void> {
    checkReportBody(body);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ deviceId, body, resolve, reject });
      if (!this.scheduled && this.running < this.maxConcurrent) {
        this.scheduled = true;
        // Lets the reports already parsed in this turn of the event loop join the group.
        setImmediate(() => {
          this.scheduled = false;
          this.startGroups();
        });
      }
    });
  }

  /** Starts groups while a slot is free and some queued report's device is not in flight. */
  private startGroups(): void {
    while (this.running < this.maxConcurrent && this.queue.length > 0) {
      const group = this.takeGroup();
      if (group.length === 0) return; // every queued report waits for its device's running group
      this.running++;
      for (const p of group) this.inFlight.add(p.deviceId);
      void this.writeGroup(group)
        // writeGroup answers every report itself; should it throw all the same, none is left hanging.
        .catch((err: unknown) => {
          for (const p of group) p.reject(err);
        })
        .finally(() => {
          this.running--;
          for (const p of group) this.inFlight.delete(p.deviceId);
          this.startGroups();
        });
    }
  }

  /**
   * The oldest reports, one per device and none of a device in flight, up to `maxGroup`; the
   * others stay queued in order.
   */
  private takeGroup(): Pending[] {
    const group: Pending[] = [];
    const rest: Pending[] = [];
    const devices = new Set<number>();
    for (const p of this.queue) {
      if (group.length < this.maxGroup && !devices.has(p.deviceId) && !this.inFlight.has(p.deviceId)) {
        devices.add(p.deviceId);
        group.push(p);
      } else {
        // A device's later reports stay behind its first: it is in `devices` from then on.
        devices.add(p.deviceId);
        rest.push(p);
      }
    }
    this.queue = rest;
    return group;
  }

  private async writeGroup(group: Pending[]): Promise<void> {
    const outcomes = new Map<Pending, { error: unknown } | null>();
    try {
      await this.db.tx(async (tx) => {
        outcomes.clear();
        const devices = await lockReportDevices(
          tx,
          group.map((p) => p.deviceId),
        );
        const writes: ReportWrite[] = [];
        for (const p of group) {
          try {
            const write = planReport(devices.get(p.deviceId), p.body);
            if (write) checkReportApp(write);
            outcomes.set(p, null);
            if (write) writes.push(write);
          } catch (error) {
            outcomes.set(p, { error });
          }
        }
        // Every report's device columns in one statement, every report's installs in a few.
        await writeReportFields(tx, writes);
        await writeReportApps(tx, writes);
      });
    } catch {
      // The grouped statement or the commit failed: nothing of the group is written. Each
      // report goes again on its own, so only the one at fault fails.
      await Promise.all(
        group.map((p) =>
          applyStateReport(this.db, p.deviceId, p.body).then(
            () => p.resolve(),
            (err: unknown) => p.reject(err),
          ),
        ),
      );
      return;
    }
    for (const p of group) {
      const outcome = outcomes.get(p);
      if (outcome) p.reject(outcome.error);
      else p.resolve();
    }
  }
}
