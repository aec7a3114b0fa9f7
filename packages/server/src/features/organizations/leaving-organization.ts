import type { Db } from '../../infra/db/db.js';
import { deleteFleetMembershipsOfMemberships, deleteTeamMembershipsOfMemberships } from './organization.repository.js';

/**
 * Rule: a user who leaves (or is removed from) an organization leaves its teams and the
 * fleets of it shared with them, so that fleet access never outlives organization
 * membership.
 */
export async function leaveTeamsAndFleetsOfOrganization(db: Db, membershipIds: readonly number[]): Promise<void> {
  if (membershipIds.length === 0) return;
  await deleteTeamMembershipsOfMemberships(db, membershipIds);
  await deleteFleetMembershipsOfMemberships(db, membershipIds);
}
