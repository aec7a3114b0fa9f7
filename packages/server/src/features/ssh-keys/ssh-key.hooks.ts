import { registerHook } from '../../infra/odata/index.js';
import { checkNewSshKey } from './ssh-key-validation.js';

export function registerSshKeyRules(): void {
  registerHook('user__has__public_key', 'POST', { before: ({ db, actor, body }) => checkNewSshKey(db, actor, body) });
}
