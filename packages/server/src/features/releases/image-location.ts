import { randomBytes } from 'node:crypto';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule: the server names where an image is stored (balena-cli pushes to the location it is
 * given): `<registry host>/v2/<32 random hex>`, a reference the registry (features/registry)
 * accepts pushes to and devices pull from. The host is the app's registry host
 * (registry's `registryHostOf`: FLOTILLA_REGISTRY_URL's host, FLOTILLA_REGISTRY_HOST, or the
 * host:port of FLOTILLA_PUBLIC_URL).
 */
export function assignImageLocation(body: HookBody<'image', 'POST'>, registryHost: string): void {
  body.is_stored_at__image_location = `${registryHost}/v2/${randomBytes(16).toString('hex')}`;
}
