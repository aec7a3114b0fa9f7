import { randomBytes } from 'node:crypto';

/**
 * Rule: the server names where an image is stored (balena-cli pushes to the location it is
 * given): `<registry host>/v2/<32 random hex>`. The registry host comes from
 * FLOTILLA_REGISTRY_HOST; buildApp passes it here, since data API hooks get only
 * `{db, actor, body, ids}`.
 */
export const DEFAULT_REGISTRY_HOST = 'registry.flotilla.local';

let registryHost = DEFAULT_REGISTRY_HOST;

export function setRegistryHost(host: string | undefined): void {
  registryHost = host ?? DEFAULT_REGISTRY_HOST;
}

export function assignImageLocation(body: Record<string, unknown>): void {
  body.is_stored_at__image_location = `${registryHost}/v2/${randomBytes(16).toString('hex')}`;
}
