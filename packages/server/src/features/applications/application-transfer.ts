import { hasPermission } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { UnauthorizedError } from '../../infra/errors.js';
import type { DataContext, HookBody } from '../../infra/odata/index.js';

/**
 * Rule: moving a fleet to another organization (PATCH `organization`) needs administrator
 * rights in both organizations. Fleet developers may otherwise update the fleet, and their
 * fleet membership would still vouch for the moved row; this closes that path.
 */
export async function checkApplicationTransfer(db: Db, actor: DataContext, body: HookBody<'application', 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (!('organization' in body) || ids.length === 0) return;
  if (hasPermission(actor.permissions, 'resin.application.update')) return; // unconditional (platform staff, rules)
  const { rowCount } = await db.query(
    `SELECT 1 FROM (SELECT organization AS org FROM application WHERE id = ANY($1) UNION SELECT $2::int) x
      WHERE NOT EXISTS (
        SELECT 1 FROM organization_membership m
          JOIN organization_membership_role r ON r.id = m.organization_membership_role AND r.name = 'administrator'
          JOIN "user" u ON u.id = m."user"
         WHERE m.is_member_of__organization = x.org AND u.actor = $3)`,
    [ids, body.organization, actor.actorId],
  );
  if (rowCount > 0) throw new UnauthorizedError();
}
