import type { JobDefinition } from '../../infra/jobs/job-runner.js';
import type { LogStore } from './log-store.js';

/** The day cap of device logs, a durable job (every minute, on whichever server takes it). */
export const DEVICE_LOGS_RETENTION_JOB = 'device-logs-retention';

export function logRetentionJob(store: LogStore): JobDefinition {
  return {
    name: DEVICE_LOGS_RETENTION_JOB,
    cron: '* * * * *',
    async run() {
      await store.pruneExpired();
    },
  };
}
