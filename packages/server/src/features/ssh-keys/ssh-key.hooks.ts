import type { Rules } from '../../infra/app/context.js';
import { checkNewSshKey } from './ssh-key-validation.js';

export function registerSshKeyRules(rules: Rules): void {
  rules.register('user__has__public_key', 'POST', { before: ({ tx, actor, body }) => checkNewSshKey(tx, actor, body) });
}
