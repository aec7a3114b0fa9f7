import type { Rules } from '../../infra/app/context.js';
import { checkProvisioningKeyUpdate } from './provisioning-key-update.js';

export function registerApiKeyRules(rules: Rules): void {
  rules.register('api_key', 'PATCH', { before: ({ tx, actor, body, ids }) => checkProvisioningKeyUpdate(tx, actor, body, ids) });
}
