import type { FastifyInstance } from 'fastify';
import type { FileStore } from '../files/file-store.js';
import { fileGarbageJob } from '../files/garbage.js';
import { heartbeatSweepJob } from './heartbeat-sweep.js';
import { JobRunner } from './job-runner.js';
import { useMailJobs } from './mail-delivery.js';

/** Starts the app's durable jobs (heartbeat sweep on the app's clock, mail delivery, file garbage); stopped on close. */
export async function startJobs(app: FastifyInstance, store: FileStore, opts: { pollingIntervalSeconds?: number } = {}): Promise<JobRunner> {
  const { db, mailer, clock } = app.context;
  const jobs = new JobRunner({ db, pollingIntervalSeconds: opts.pollingIntervalSeconds, onError: (err) => app.log.error({ err }, 'job runner') });
  jobs.register(heartbeatSweepJob(db, () => new Date(clock())));
  useMailJobs(jobs, mailer);
  jobs.register(fileGarbageJob(db, store));
  await jobs.start();
  app.addHook('onClose', async () => jobs.stop());
  return jobs;
}
