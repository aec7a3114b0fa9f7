import type { Rules } from '../../infra/app/context.js';
import { checkFleetMemberInOrganization } from './fleet-member-in-organization.js';
import { acceptUsername } from './username-for-user.js';

export function registerFleetAccessRules(rules: Rules): void {
  rules.register('user_application_membership', 'POST', acceptUsername);
  rules.register('user_application_membership', 'POST', { before: ({ tx, body }) => checkFleetMemberInOrganization(tx, body) });
}
