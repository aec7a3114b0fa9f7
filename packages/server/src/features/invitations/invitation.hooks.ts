import { registerHook } from '../../infra/odata/index.js';
import { FLEET_INVITE, ORGANIZATION_INVITE } from './invitation-kinds.js';
import { sendInvitationMail } from './invitation-mail.js';
import { resolveInvitationRole } from './invitation-role.js';
import { prepareInvitation } from './invitation-token.js';
import { checkInviteeEmail, inviteeFor } from './invitee-email.js';
import { checkInviteeNotInvited } from './invitee-not-invited.js';
import { checkInviteeNotMember } from './invitee-not-member.js';

export function registerInvitationRules(): void {
  for (const kind of [ORGANIZATION_INVITE, FLEET_INVITE]) {
    registerHook(kind.resource, 'POST', {
      // `invitee` is POSTed as the e-mail address and becomes the invitee row's id here.
      acceptFields: ['roleName', 'invitee'],
      before: async ({ db, actor, body }) => {
        const email = checkInviteeEmail(body);
        await resolveInvitationRole(db, kind, body);
        await prepareInvitation(db, actor.actorId, body);
        body.invitee = await inviteeFor(db, email);
      },
      // After the insert and its create-rule check: only those who may invite learn whether
      // an address is already a member or invited.
      after: async ({ db, ids, body }) => {
        await checkInviteeNotMember(db, kind, body);
        await checkInviteeNotInvited(db, kind, body, ids[0]!);
        await sendInvitationMail(db, kind, ids[0]!, body);
      },
    });
  }
}
