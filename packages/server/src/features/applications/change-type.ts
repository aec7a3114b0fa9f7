import { hasPermission } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { ForbiddenError } from '../../infra/errors.js';
import type { DataContext, HookBody } from '../../infra/odata/index.js';

/**
 * Rule (spec 2 §6, resin.application.change-type: administrator adds): changing a fleet's
 * application type (the legacy "upgrade type" action) needs the fleet administrator role —
 * through the organization, a fleet membership or a team's access — while developers may
 * otherwise update the fleet.
 */
export async function checkChangeType(db: Db, actor: DataContext, body: HookBody<'application', 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (!('application_type' in body) || ids.length === 0) return;
  if (hasPermission(actor.permissions, 'resin.application.update')) return; // unconditional (rules, root)
  const { rowCount } = await db.query(
    `SELECT 1 FROM application a
      WHERE a.id = ANY($1::int[])
        AND NOT EXISTS (
          SELECT 1 FROM organization_membership m
            JOIN organization_membership_role r ON r.id = m.organization_membership_role AND r.name = 'administrator'
            JOIN "user" u ON u.id = m."user"
           WHERE m.is_member_of__organization = a.organization AND u.actor = $2)
        AND NOT EXISTS (
          SELECT 1 FROM user_application_membership fm
            JOIN application_membership_role r ON r.id = fm.application_membership_role AND r.name = 'administrator'
            JOIN "user" u ON u.id = fm."user"
           WHERE fm.is_member_of__application = a.id AND u.actor = $2)
        AND NOT EXISTS (
          SELECT 1 FROM team_application_access ta
            JOIN application_membership_role r ON r.id = ta.application_membership_role AND r.name = 'administrator'
            JOIN team_membership tm ON tm.is_member_of__team = ta.team
            JOIN "user" u ON u.id = tm."user"
           WHERE ta.grants_access_to__application = a.id AND u.actor = $2)`,
    [ids, actor.actorId],
  );
  if (rowCount > 0) throw new ForbiddenError("You don't have the required permission for this action");
}
