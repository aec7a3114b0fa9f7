import type { Rules } from '../../infra/app/context.js';
import { FLEET_INVITE, ORGANIZATION_INVITE } from './invitation-kinds.js';
import { sendInvitationMail } from './invitation-mail.js';
import { resolveInvitationRole } from './invitation-role.js';
import { prepareInvitation } from './invitation-token.js';
import { checkInviteeEmail, inviteeFor } from './invitee-email.js';
import { checkInviteeNotInvited } from './invitee-not-invited.js';
import { checkInviteeNotMember } from './invitee-not-member.js';

export function registerInvitationRules(rules: Rules): void {
  for (const kind of [ORGANIZATION_INVITE, FLEET_INVITE]) {
    rules.register(kind.resource, 'POST', {
      // `invitee` is POSTed as the e-mail address and becomes the invitee row's id here.
      acceptFields: ['roleName', 'invitee'],
      before: async ({ tx, app, actor, body }) => {
        const email = checkInviteeEmail(body);
        await resolveInvitationRole(tx, kind, body);
        await prepareInvitation(tx, actor.actorId, body, app.clock());
        body.invitee = await inviteeFor(tx, email);
      },
      // After the insert and its create-rule check: only those who may invite learn whether
      // an address is already a member or invited.
      after: async ({ tx, app, ids, body }) => {
        await checkInviteeNotMember(tx, kind, body);
        await checkInviteeNotInvited(tx, kind, body, ids[0]!);
        await sendInvitationMail(tx, app.mailer, kind, ids[0]!, body);
      },
    });
  }
}
