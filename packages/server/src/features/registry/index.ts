import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import type { JobDefinition } from '../../infra/jobs/job-runner.js';
import { assertNotFrozen } from '../billing/index.js';
import { DirectoryBlobStore, type BlobStore } from './blob-store.js';
import { registryGarbageJob } from './garbage.js';
import { registryHostOf } from './registry-host.js';
import { OciError } from './oci-errors.js';
import { registryRoutes } from './registry.routes.js';
import { loadTokenKey, TokenSigner } from './token.js';
import { tokenRoutes } from './token.routes.js';

export { REGISTRY_GARBAGE_JOB, sweepRegistry } from './garbage.js';
export { registryHostOf } from './registry-host.js';

/** How long an upload may stay unfinished before the garbage job drops it (default). */
export const DEFAULT_UPLOAD_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** How long an unreferenced blob (or a repository whose image is in no release) is kept. */
export const DEFAULT_GARBAGE_GRACE_MS = 60 * 60 * 1000;
/** Largest blob one upload may make (default). */
export const DEFAULT_BLOB_MAX_BYTES = 16 * 1024 * 1024 * 1024;

/** What the app's registry runs with (main.ts: FLOTILLA_REGISTRY_*; tests set what they need). */
export interface RegistryState {
  store: BlobStore;
  signer: TokenSigner;
  /** The garbage job (registered by app.ts with the other durable jobs). */
  job: JobDefinition;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The container registry (features/registry). */
    registry: RegistryState;
  }
}

/**
 * The container registry: `/auth/v1/token` (Docker token protocol) and, unless an external
 * registry is configured (FLOTILLA_REGISTRY_URL), the OCI Distribution API at `/v2/`.
 */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  const { config, db, mailer, clock } = app.context;
  const settings = config.registry ?? {};
  let dir = settings.dir;
  if (dir === undefined) {
    const tmp = await mkdtemp(join(tmpdir(), 'flotilla-registry-'));
    app.addHook('onClose', async () => rm(tmp, { recursive: true, force: true }));
    dir = tmp;
  }
  const store = new DirectoryBlobStore(dir);
  const key = await loadTokenKey(settings.tokenKeyPem, join(dir, 'token-key.pem'));
  const service = settings.service ?? registryHostOf(app.context);
  const signer = new TokenSigner(key, settings.issuer ?? 'flotilla', service, clock);
  const realm = `${mailer.publicUrl.replace(/\/+$/, '')}/auth/v1/token`;
  // A frozen organization's fleets take no pushed images (issue 18); pulls keep working.
  tokenRoutes(app, signer, (imageId) => assertNotFrozen(app, db, { images: [imageId] }));
  // Errors raised before a /v2 route runs (an undecodable URL) answer in the registry's format too.
  app.errorFormats.set('/v2', (status, message) => new OciError(status, status === 400 ? 'NAME_INVALID' : 'UNSUPPORTED', message).body());
  await app.register(registryRoutes, {
    db,
    store,
    signer,
    realm,
    blobMaxBytes: settings.blobMaxBytes ?? DEFAULT_BLOB_MAX_BYTES,
    externalUrl: settings.externalUrl,
  });
  const job = registryGarbageJob(
    db,
    store,
    { uploadMaxAgeMs: settings.uploadMaxAgeMs ?? DEFAULT_UPLOAD_MAX_AGE_MS, graceMs: settings.garbageGraceMs ?? DEFAULT_GARBAGE_GRACE_MS },
    clock,
  );
  app.decorate('registry', { store, signer, job });
}
