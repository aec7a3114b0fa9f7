import type { Db } from '../../infra/db/db.js';
import {
  applyStateReport,
  checkReportBody,
  lockReportDevices,
  planReport,
  writeReportApp,
  writeReportFields,
  type ReportWrite,
} from './state-report.js';
import { releaseReportSavepoint, rollbackToReportSavepoint, savepointReport } from './state-report.repository.js';

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
 *   one statement, and each report's installs in a savepoint of its own;
 * - a request is answered only once the transaction holding its write has committed;
 * - a report that is refused (403 another uuid, 400 a bad value) or whose installs fail
 *   fails alone; the rest of the group still commits;
 * - when the grouped statement or the commit fails, every report of the group is written
 *   again on its own (`applyStateReport`), so a failing write fails only its request;
 * - at most one report per device in a group: a device's later report waits for the next
 *   group, so reports of one device are applied in arrival order.
 *
 * No timer: a group closes when the previous transaction is done, so a lone report waits
 * for nobody, and under load each transaction carries what queued meanwhile.
 */
export class StateReportBatch {
  private queue: Pending[] = [];
  private running = false;

  constructor(
    private readonly db: Db,
    private readonly maxGroup = 500,
  ) {}

  /** Resolves once the report is durable; rejects with its own error only. */
  submit(deviceId: number, body: unknown): Promise<void> {
    checkReportBody(body);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ deviceId, body, resolve, reject });
      if (!this.running) {
        this.running = true;
        // Lets the reports already parsed in this turn of the event loop join the first group.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.writeGroup(this.takeGroup());
    } finally {
      this.running = false;
    }
  }

  /** The oldest reports, one per device, up to `maxGroup`; the others stay queued in order. */
  private takeGroup(): Pending[] {
    const group: Pending[] = [];
    const rest: Pending[] = [];
    const devices = new Set<number>();
    for (const p of this.queue) {
      if (group.length < this.maxGroup && !devices.has(p.deviceId)) {
        devices.add(p.deviceId);
        group.push(p);
      } else {
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
        const plain: ReportWrite[] = [];
        const withApp: [Pending, ReportWrite][] = [];
        for (const p of group) {
          try {
            const write = planReport(devices.get(p.deviceId), p.body);
            outcomes.set(p, null);
            if (write?.app) withApp.push([p, write]);
            else if (write) plain.push(write);
          } catch (error) {
            outcomes.set(p, { error });
          }
        }
        await writeReportFields(tx, plain);
        for (const [p, write] of withApp) {
          await savepointReport(tx);
          try {
            await writeReportFields(tx, [write]);
            await writeReportApp(tx, write);
            await releaseReportSavepoint(tx);
          } catch (error) {
            await rollbackToReportSavepoint(tx);
            outcomes.set(p, { error });
          }
        }
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
