import { registerHook } from '../../infra/odata/index.js';
import { checkFleetMemberInOrganization } from './fleet-member-in-organization.js';
import { acceptUsername } from './username-for-user.js';

export function registerFleetAccessRules(): void {
  registerHook('user_application_membership', 'POST', acceptUsername);
  registerHook('user_application_membership', 'POST', { before: ({ db, body }) => checkFleetMemberInOrganization(db, body) });
}
