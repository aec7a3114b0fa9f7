import { LAST_ADMINISTRATOR_RULE } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { includesLastAdministrator, lockOrganizationsOfMemberships, membershipRoleName } from './organization.repository.js';

/**
 * Rule (spec 1 §6, §8): an organization keeps at least one administrator. Deleting, or
 * demoting through PATCH, the memberships `ids` must leave every organization that had an
 * administrator among them with another one; else 400 with balena's text of the rule
 * (`LAST_ADMINISTRATOR_RULE`; the dashboard shows the spec's `cannot_delete_last_organization_admin`).
 * (Deleting the organization itself removes its memberships without this check.)
 */
export async function protectLastAdministrator(db: Db, ids: readonly number[], newRoleId?: unknown): Promise<void> {
  if (ids.length === 0) return;
  if (newRoleId !== undefined) {
    if ((await membershipRoleName(db, newRoleId)) === 'administrator') return; // promoting (or keeping) administrators
  }
  // Lock the organizations concerned so that two concurrent removals of their two last
  // administrators cannot both succeed.
  await lockOrganizationsOfMemberships(db, ids);
  if (await includesLastAdministrator(db, ids)) throw new BadRequestError(LAST_ADMINISTRATOR_RULE);
}
