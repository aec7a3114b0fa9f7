import { registerHook } from '../../infra/odata/index.js';
import { checkUserApiKeyUpdate } from './user-api-key-rules.js';
import { checkUserPreferences } from './user-profile-rules.js';

export function registerUserPreferenceRules(): void {
  registerHook('user', 'PATCH', { before: ({ body }) => checkUserPreferences(body) });
  registerHook('api_key', 'PATCH', { before: ({ db, actor, body, ids }) => checkUserApiKeyUpdate(db, actor, body, ids) });
}
