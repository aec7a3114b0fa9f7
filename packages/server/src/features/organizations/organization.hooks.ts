import type { Rules } from '../../infra/app/context.js';
import { acceptUsername } from '../access/index.js';
import { addCreatorAsAdministrator } from './creator-becomes-administrator.js';
import { protectLastAdministrator } from './last-administrator.js';
import { leaveTeamsAndFleetsOfOrganization } from './leaving-organization.js';
import { checkOrganizationRename, prepareOrganization } from './organization-handle.js';
import { checkLogoField } from './organization-logo.js';

export function registerOrganizationRules(rules: Rules): void {
  rules.register('organization', 'POST', {
    before: async ({ tx, body }) => {
      checkLogoField(body);
      await prepareOrganization(tx, body);
    },
    after: ({ tx, ids, actor }) => addCreatorAsAdministrator(tx, ids[0]!, actor.actorId),
  });
  rules.register('organization', 'PATCH', {
    before: ({ body }) => {
      checkOrganizationRename(body);
      checkLogoField(body);
    },
  });

  rules.register('organization_membership', 'POST', acceptUsername);
  rules.register('organization_membership', 'PATCH', {
    before: ({ tx, body, ids }) =>
      'organization_membership_role' in body ? protectLastAdministrator(tx, ids, body.organization_membership_role) : undefined,
  });
  rules.register('organization_membership', 'DELETE', {
    before: async ({ tx, ids }) => {
      await protectLastAdministrator(tx, ids);
      await leaveTeamsAndFleetsOfOrganization(tx, ids);
    },
  });
}
