import type { Rules } from '../../infra/app/context.js';
import { acceptUsername } from '../access/index.js';
import { checkFleetInTeamOrganization } from './fleet-in-team-organization.js';
import { raiseSeatRoles } from './seat-role-rise.js';
import { checkTeamMemberInOrganization } from './team-member-in-organization.js';
import { checkTeamName } from './team-name.js';
import { teamsOfAccess } from './team.repository.js';

export function registerTeamRules(rules: Rules): void {
  rules.register('team', 'POST', {
    before: ({ tx, body, ids }) => {
      if (!('name' in body)) body.name = undefined; // a missing name gets the rule's message
      return checkTeamName(tx, body, ids);
    },
  });
  rules.register('team', 'PATCH', { before: ({ tx, body, ids }) => checkTeamName(tx, body, ids) });

  rules.register('team_membership', 'POST', acceptUsername);
  rules.register('team_membership', 'POST', {
    before: ({ tx, body }) => checkTeamMemberInOrganization(tx, body),
    after: ({ tx, ids }) => raiseSeatRoles(tx, { teamMembershipIds: ids }),
  });

  rules.register('team_application_access', 'POST', {
    before: ({ tx, body }) => checkFleetInTeamOrganization(tx, body),
    after: async ({ tx, ids }) => raiseSeatRoles(tx, { teamIds: await teamsOfAccess(tx, ids) }),
  });
  rules.register('team_application_access', 'PATCH', {
    after: async ({ tx, ids }) => raiseSeatRoles(tx, { teamIds: await teamsOfAccess(tx, ids) }),
  });
}
