import type { Db } from '../../infra/db/db.js';
import { addAdministratorByActor } from './organization.repository.js';

/** Rule: the user who creates an organization becomes its administrator. */
export async function addCreatorAsAdministrator(db: Db, organizationId: number, actorId: number | null): Promise<void> {
  if (actorId === null) return;
  await addAdministratorByActor(db, organizationId, actorId);
}
