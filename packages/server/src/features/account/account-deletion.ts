import { CUSTOM_PLAN_REFUSAL, FREE_PLAN_CODE, isCustomPlanCode, type AccountDeletionPreflight, type SingleAdminOrganization } from '@flotilla/model';

export type { AccountDeletionPreflight, SingleAdminOrganization };
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { AppContext } from '../../infra/app/context.js';
import { odataDelete, type DataContext } from '../../infra/odata/index.js';
import { cancelSubscriptions, planCodesOf } from '../billing/index.js';
import { countOrganizationContents, deleteActor, deleteUserRow, singleAdminOrganizationRows } from './account.repository.js';

/** The user refuses deletion while an organization they alone administer keeps other members. */
export const SOLE_ADMIN_OF_SHARED_ORGANIZATION = 'cannot_delete_last_organization_admin';

/**
 * Plan codes of organizations: their active subscription's plan (issue 18), the free plan for
 * one without a subscription (billing off, or an organization that predates billing).
 */
export async function planCodesByOrg(db: Db, organizationIds: readonly number[]): Promise<Map<number, string>> {
  const codes = await planCodesOf(db, organizationIds);
  return new Map(organizationIds.map((id) => [id, codes.get(id) ?? FREE_PLAN_CODE]));
}

export async function singleAdminOrganizations(db: Db, userId: number, lock = false): Promise<SingleAdminOrganization[]> {
  return singleAdminOrganizationRows(db, userId, lock);
}

export async function accountDeletionPreflight(db: Db, userId: number): Promise<AccountDeletionPreflight> {
  const orgs = await singleAdminOrganizations(db, userId);
  const ids = orgs.map((o) => o.id);
  const counts = await countOrganizationContents(db, ids);
  const codes = await planCodesByOrg(db, ids);
  return {
    singleAdminOrgs: orgs,
    billingPlanCodesByOrg: Object.fromEntries(orgs.map((o) => [String(o.id), codes.get(o.id) ?? FREE_PLAN_CODE])),
    applicationCount: counts.applications,
    deviceCount: counts.devices,
  };
}

/**
 * Deletes the user's account (the password and a recent authentication are checked by the
 * route). Rules, in one transaction:
 *  - organizations the user alone administers go with the account when nobody else is a
 *    member (the personal organization); one that still has other members refuses the
 *    deletion with `cannot_delete_last_organization_admin` (the wizard deletes those
 *    organizations first, after telling the user);
 *  - an organization on a custom billing plan refuses with the spec's message; the others'
 *    subscriptions are cancelled (spec 3 §4), then go with the organization;
 *  - the organizations are deleted through the data layer as the user (their fleets,
 *    devices and keys with them, by the same rules as a DELETE /v7/organization), then the
 *    user, their memberships and their actor with every API key.
 */
export async function deleteAccount(app: AppContext, db: Db, ctx: DataContext, userId: number): Promise<void> {
  await db.tx(async (tx) => {
    const orgs = await singleAdminOrganizations(tx, userId, true);
    const codes = await planCodesByOrg(tx, orgs.map((o) => o.id));
    if (orgs.some((o) => isCustomPlanCode(codes.get(o.id)))) throw new BadRequestError(CUSTOM_PLAN_REFUSAL);
    if (orgs.some((o) => o.otherMembers > 0)) throw new BadRequestError(SOLE_ADMIN_OF_SHARED_ORGANIZATION);
    const ids = orgs.map((o) => o.id);
    if (ids.length > 0) {
      await cancelSubscriptions(tx, ids, new Date(app.clock()));
      const list = ids.join(',');
      await odataDelete(app, tx, ctx, `/application?$filter=organization in (${list})`);
      await odataDelete(app, tx, ctx, `/organization?$filter=id in (${list})`);
    }
    const actor = await deleteUserRow(tx, userId);
    if (actor !== undefined) {
      app.apiKeyChanges.forget(tx, { actorIds: [actor] });
      await deleteActor(tx, actor);
    }
  });
}
