import { CUSTOM_PLAN_REFUSAL, FREE_PLAN_CODE, isCustomPlanCode, type AccountDeletionPreflight, type SingleAdminOrganization } from '@flotilla/model';

export type { AccountDeletionPreflight, SingleAdminOrganization };
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { AppContext } from '../../infra/app/context.js';
import { odataDelete, type DataContext } from '../../infra/odata/index.js';

/** The user refuses deletion while an organization they alone administer keeps other members. */
export const SOLE_ADMIN_OF_SHARED_ORGANIZATION = 'cannot_delete_last_organization_admin';

/**
 * Plan code of an organization. Billing is a later issue: every organization is on the free
 * plan until then, so the custom-plan refusal cannot trigger yet (billing replaces this).
 */
export function planCodeOf(_organizationId: number): string {
  return FREE_PLAN_CODE;
}

export async function singleAdminOrganizations(db: Db, userId: number, lock = false): Promise<SingleAdminOrganization[]> {
  const { rows } = await db.query<SingleAdminOrganization>(
    `WITH admin AS (
       SELECT m."user", m.is_member_of__organization AS org FROM organization_membership m
         JOIN organization_membership_role r ON r.id = m.organization_membership_role AND r.name = 'administrator')
     SELECT o.id, o.name, o.handle,
            (SELECT count(*)::int FROM organization_membership m WHERE m.is_member_of__organization = o.id AND m."user" <> $1) AS "otherMembers"
       FROM organization o
      WHERE o.id IN (SELECT org FROM admin WHERE "user" = $1)
        AND NOT EXISTS (SELECT 1 FROM admin a WHERE a.org = o.id AND a."user" <> $1)
      ORDER BY o.name
      ${lock ? 'FOR UPDATE' : ''}`,
    [userId],
  );
  return rows;
}

export async function accountDeletionPreflight(db: Db, userId: number): Promise<AccountDeletionPreflight> {
  const orgs = await singleAdminOrganizations(db, userId);
  const ids = orgs.map((o) => o.id);
  const { rows } = await db.query<{ applications: number; devices: number }>(
    `SELECT (SELECT count(*)::int FROM application WHERE organization = ANY($1::int[])) AS applications,
            (SELECT count(*)::int FROM device d JOIN application a ON a.id = d.belongs_to__application
              WHERE a.organization = ANY($1::int[])) AS devices`,
    [ids],
  );
  return {
    singleAdminOrgs: orgs,
    billingPlanCodesByOrg: Object.fromEntries(orgs.map((o) => [String(o.id), planCodeOf(o.id)])),
    applicationCount: rows[0]?.applications ?? 0,
    deviceCount: rows[0]?.devices ?? 0,
  };
}

/**
 * Deletes the user's account (the password and a recent authentication are checked by the
 * route). Rules, in one transaction:
 *  - organizations the user alone administers go with the account when nobody else is a
 *    member (the personal organization); one that still has other members refuses the
 *    deletion with `cannot_delete_last_organization_admin` (the wizard deletes those
 *    organizations first, after telling the user);
 *  - an organization on a custom billing plan refuses with the spec's message;
 *  - the organizations are deleted through the data layer as the user (their fleets,
 *    devices and keys with them, by the same rules as a DELETE /v7/organization), then the
 *    user, their memberships and their actor with every API key.
 */
export async function deleteAccount(app: AppContext, db: Db, ctx: DataContext, userId: number): Promise<void> {
  await db.tx(async (tx) => {
    const orgs = await singleAdminOrganizations(tx, userId, true);
    if (orgs.some((o) => isCustomPlanCode(planCodeOf(o.id)))) throw new BadRequestError(CUSTOM_PLAN_REFUSAL);
    if (orgs.some((o) => o.otherMembers > 0)) throw new BadRequestError(SOLE_ADMIN_OF_SHARED_ORGANIZATION);
    const ids = orgs.map((o) => o.id);
    if (ids.length > 0) {
      const list = ids.join(',');
      await odataDelete(app, tx, ctx, `/application?$filter=organization in (${list})`);
      await odataDelete(app, tx, ctx, `/organization?$filter=id in (${list})`);
    }
    const { rows } = await tx.query<{ actor: number }>('DELETE FROM "user" WHERE id = $1 RETURNING actor', [userId]);
    const actor = rows[0]?.actor;
    if (actor !== undefined) {
      app.apiKeyChanges.forget(tx, { actorIds: [actor] });
      await tx.query('DELETE FROM actor WHERE id = $1', [actor]);
    }
  });
}
