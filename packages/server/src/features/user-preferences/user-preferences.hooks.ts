import type { Rules } from '../../infra/app/context.js';
import { checkUserApiKeyUpdate } from './user-api-key-rules.js';
import { checkUserPreferences } from './user-profile-rules.js';

export function registerUserPreferenceRules(rules: Rules): void {
  rules.register('user', 'PATCH', { before: ({ body }) => checkUserPreferences(body) });
  rules.register('api_key', 'PATCH', { before: ({ tx, actor, body, ids }) => checkUserApiKeyUpdate(tx, actor, body, ids) });
}
