import { registerHook } from '../../infra/odata/index.js';
import { checkProvisioningKeyUpdate } from './provisioning-key-update.js';

export function registerApiKeyRules(): void {
  registerHook('api_key', 'PATCH', { before: ({ db, actor, body, ids }) => checkProvisioningKeyUpdate(db, actor, body, ids) });
}
