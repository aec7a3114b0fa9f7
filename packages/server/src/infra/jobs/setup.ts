import type { FastifyInstance } from 'fastify';
import type { FileStore } from '../files/file-store.js';
import { fileGarbageJob } from '../files/garbage.js';
import { heartbeatSweepJob } from './heartbeat-sweep.js';
import { JobRunner, type JobDefinition } from './job-runner.js';
import { useMailJobs } from './mail-delivery.js';

/**
 * Starts the app's durable jobs (heartbeat sweep on the app's clock, mail delivery, file
 * garbage, and the features' own `jobs`: the registry's garbage); stopped on close.
 */
export async function startJobs(app: FastifyInstance, store: FileStore, opts: { pollingIntervalSeconds?: number } = {}, jobs: readonly JobDefinition[] = []): Promise<JobRunner> {
  const { db, mailer, clock } = app.context;
  const runner = new JobRunner({ db, pollingIntervalSeconds: opts.pollingIntervalSeconds, onError: (err) => app.log.error({ err }, 'job runner') });
  runner.register(heartbeatSweepJob(db, () => new Date(clock())));
  useMailJobs(runner, mailer);
  runner.register(fileGarbageJob(db, store));
  for (const job of jobs) runner.register(job);
  await runner.start();
  app.addHook('onClose', async () => runner.stop());
  return runner;
}
