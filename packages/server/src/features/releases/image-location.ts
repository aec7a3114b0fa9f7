import { randomBytes } from 'node:crypto';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule: the server names where an image is stored (balena-cli pushes to the location it is
 * given): `<registry host>/v2/<32 random hex>`. The registry host is the app's
 * (FLOTILLA_REGISTRY_HOST, AppConfig.registryHost).
 */
export const DEFAULT_REGISTRY_HOST = 'registry.flotilla.local';

export function assignImageLocation(body: HookBody<'image', 'POST'>, registryHost: string = DEFAULT_REGISTRY_HOST): void {
  body.is_stored_at__image_location = `${registryHost}/v2/${randomBytes(16).toString('hex')}`;
}
