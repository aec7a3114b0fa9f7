import { registerHook } from '../../infra/odata/index.js';
import { acceptUsername } from '../access/username-for-user.js';
import { checkFleetInTeamOrganization } from './fleet-in-team-organization.js';
import { raiseSeatRoles, teamsOfAccess } from './seat-role-rise.js';
import { checkTeamMemberInOrganization } from './team-member-in-organization.js';
import { checkTeamName } from './team-name.js';

export function registerTeamRules(): void {
  registerHook('team', 'POST', {
    before: ({ db, body, ids }) => {
      if (!('name' in body)) body.name = undefined; // a missing name gets the rule's message
      return checkTeamName(db, body, ids);
    },
  });
  registerHook('team', 'PATCH', { before: ({ db, body, ids }) => checkTeamName(db, body, ids) });

  registerHook('team_membership', 'POST', acceptUsername);
  registerHook('team_membership', 'POST', {
    before: ({ db, body }) => checkTeamMemberInOrganization(db, body),
    after: ({ db, ids }) => raiseSeatRoles(db, { teamMembershipIds: ids }),
  });

  registerHook('team_application_access', 'POST', {
    before: ({ db, body }) => checkFleetInTeamOrganization(db, body),
    after: async ({ db, ids }) => raiseSeatRoles(db, { teamIds: await teamsOfAccess(db, ids) }),
  });
  registerHook('team_application_access', 'PATCH', {
    after: async ({ db, ids }) => raiseSeatRoles(db, { teamIds: await teamsOfAccess(db, ids) }),
  });
}
