import { registerHook } from '../../infra/odata/index.js';
import { acceptUsername } from '../access/username-for-user.js';
import { addCreatorAsAdministrator } from './creator-becomes-administrator.js';
import { protectLastAdministrator } from './last-administrator.js';
import { leaveTeamsAndFleetsOfOrganization } from './leaving-organization.js';
import { checkOrganizationRename, prepareOrganization } from './organization-handle.js';
import { checkLogoField } from './organization-logo.js';

export function registerOrganizationRules(): void {
  registerHook('organization', 'POST', {
    before: async ({ db, body }) => {
      checkLogoField(body);
      await prepareOrganization(db, body);
    },
    after: ({ db, ids, actor }) => addCreatorAsAdministrator(db, ids[0]!, actor.actorId),
  });
  registerHook('organization', 'PATCH', {
    before: ({ body }) => {
      checkOrganizationRename(body);
      checkLogoField(body);
    },
  });

  registerHook('organization_membership', 'POST', acceptUsername);
  registerHook('organization_membership', 'PATCH', {
    before: ({ db, body, ids }) =>
      'organization_membership_role' in body ? protectLastAdministrator(db, ids, body.organization_membership_role) : undefined,
  });
  registerHook('organization_membership', 'DELETE', {
    before: async ({ db, ids }) => {
      await protectLastAdministrator(db, ids);
      await leaveTeamsAndFleetsOfOrganization(db, ids);
    },
  });
}
