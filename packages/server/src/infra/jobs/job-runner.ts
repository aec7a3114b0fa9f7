import PgBoss from 'pg-boss';
import type { Db } from '../db/db.js';
import { holdStartLock, START_LOCKS } from '../db/start-locks.js';

/**
 * Durable background jobs in PostgreSQL (ARCHITECTURE: heartbeat sweeps, mail, invoice runs
 * are jobs, never `setInterval` state in one process). pg-boss keeps queues and schedules in
 * its own schema (`pgboss`, created and migrated on start), so the work survives restarts
 * and runs once across any number of server processes: a cron schedule enqueues one job per
 * slot cluster-wide, and a job is fetched with SKIP LOCKED by exactly one worker.
 *
 * pg-boss 10 (not 11+): it is the last line that runs on Node 20, which the project targets.
 */

export interface JobDefinition<T extends object = object> {
  name: string;
  /** Five-field cron (UTC); the smallest slot is one minute. */
  cron?: string;
  run(data: T): Promise<void>;
}

export interface JobRunnerOptions {
  db: Db;
  onError?: (err: unknown) => void;
  /** How often an idle worker polls for work (pg-boss default 2 s). */
  pollingIntervalSeconds?: number;
}

export class JobRunner {
  private readonly boss: PgBoss;
  private readonly jobs: JobDefinition[] = [];
  private started = false;

  constructor(private readonly opts: JobRunnerOptions) {
    this.boss = new PgBoss({
      // pg-boss runs its statements through our pool (bounded, shared with requests).
      db: { executeSql: (text, values) => opts.db.query(text, values ?? []) },
      schema: 'pgboss',
    });
    this.boss.on('error', (err) => opts.onError?.(err));
  }

  register<T extends object>(job: JobDefinition<T>): void {
    if (this.started) throw new Error(`job ${job.name} registered after start`);
    this.jobs.push(job as JobDefinition);
  }

  async start(): Promise<void> {
    // Servers starting at the same moment on a new database (a cluster's first start, a
    // rolling upgrade): pg-boss's own install is not safe to run twice at once (two sessions'
    // CREATE SCHEMA collide, and start-up fails), so one server at a time starts it, the others
    // then find it installed. The lock is held on a connection of its own, released at commit.
    // Queues and schedules are made under the same lock: two servers creating the same queues
    // at once deadlocked in pg-boss's createQueue (a cluster's first start after new jobs).
    await this.opts.db.tx(async (tx) => {
      await holdStartLock(tx, START_LOCKS.jobs);
      await this.boss.start();
      for (const job of this.jobs) {
        await this.boss.createQueue(job.name);
        if (job.cron) await this.boss.schedule(job.name, job.cron, {}, { tz: 'UTC' });
      }
    });
    this.started = true;
    for (const job of this.jobs) {
      await this.boss.work<object>(
        job.name,
        { pollingIntervalSeconds: this.opts.pollingIntervalSeconds ?? 2 },
        async (batch) => {
          for (const j of batch) await job.run(j.data);
        },
      );
    }
  }

  /** Enqueues a job now (tests; features that hand work off). Returns its id. */
  async send(name: string, data: object = {}): Promise<string | null> {
    return this.boss.send(name, data);
  }

  /** The state of a job (tests): created, active, completed, failed… */
  async stateOf(name: string, id: string): Promise<string | undefined> {
    const job = await this.boss.getJobById(name, id);
    return job?.state;
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    // Waits for running jobs to finish; our pool is closed by its owner, not by pg-boss.
    await this.boss.stop({ graceful: true, wait: true, close: false, timeout: 10_000 });
  }
}
