import type { Db } from '../../infra/db/db.js';
import type { JobDefinition } from '../../infra/jobs/job-runner.js';
import type { BlobStore } from './blob-store.js';
import { dropDeadRepositories, dropStaleUploads, sweepBlobs } from './registry.repository.js';

/**
 * The registry's garbage, a durable job (every minute, on whichever server takes it):
 *  1. uploads begun more than `uploadMaxAgeMs` ago and never completed: rows and files;
 *  2. repositories no image needs any more (its release deleted, its image deleted): their
 *     links, manifests and tags;
 *  3. mark and sweep of blobs: a blob no repository links and no manifest names, untouched
 *     for `graceMs`, leaves the disk (a push that is linking it touches it and holds its row).
 */
export const REGISTRY_GARBAGE_JOB = 'registry-garbage';

export interface RegistryGarbageOptions {
  uploadMaxAgeMs: number;
  graceMs: number;
}

export interface RegistryGarbageResult {
  uploads: number;
  repositories: number;
  blobs: number;
}

export async function sweepRegistry(db: Db, store: BlobStore, opts: RegistryGarbageOptions, now = Date.now()): Promise<RegistryGarbageResult> {
  const uploads = await dropStaleUploads(db, new Date(now - opts.uploadMaxAgeMs));
  for (const uuid of uploads) await store.removeUpload(uuid);
  const repositories = await dropDeadRepositories(db, new Date(now - opts.graceMs));
  const blobs = await sweepBlobs(db, new Date(now - opts.graceMs), (digest) => store.removeBlob(digest));
  return { uploads: uploads.length, repositories: repositories.length, blobs };
}

export function registryGarbageJob(db: Db, store: BlobStore, opts: RegistryGarbageOptions, clock: () => number): JobDefinition {
  return {
    name: REGISTRY_GARBAGE_JOB,
    cron: '* * * * *',
    async run() {
      await sweepRegistry(db, store, opts, clock());
    },
  };
}
