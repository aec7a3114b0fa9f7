import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { InvitationKind } from './invitation-kinds.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule (spec 1 §5, §8): nobody is invited where they already are: 400
 * `invitee_already_exist` when a user with the invitee's e-mail (case-insensitively) is a
 * member of the organization, or for a fleet has a fleet membership or administers the
 * fleet's organization (and so the fleet). Runs after the insert, like the pending check.
 */
export async function checkInviteeNotMember(db: Db, kind: InvitationKind, body: HookBody<InvitationKind['resource'], 'POST'>): Promise<void> {
  const target = body[kind.target];
  if (typeof body.invitee !== 'number' || typeof target !== 'number') return; // required-field checks answer
  const sql =
    kind.kind === 'organization'
      ? `SELECT 1 FROM organization_membership m JOIN "user" u ON u.id = m."user", invitee e
          WHERE m.is_member_of__organization = $1 AND e.id = $2 AND lower(u.email) = lower(e.email)`
      : `SELECT 1 FROM "user" u, application a, invitee e
          WHERE a.id = $1 AND e.id = $2 AND lower(u.email) = lower(e.email)
            AND (EXISTS (SELECT 1 FROM user_application_membership fm
                          WHERE fm."user" = u.id AND fm.is_member_of__application = a.id)
                 OR EXISTS (SELECT 1 FROM organization_membership m
                              JOIN organization_membership_role r ON r.id = m.organization_membership_role
                             WHERE m."user" = u.id AND m.is_member_of__organization = a.organization
                               AND r.name = 'administrator'))`;
  const { rowCount } = await db.query(sql, [target, body.invitee]);
  if (rowCount > 0) throw new BadRequestError('invitee_already_exist');
}
