import { hasPermission } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { UnauthorizedError } from '../../infra/errors.js';
import type { DataContext, HookBody } from '../../infra/odata/index.js';
import { lacksAdministratorOfOrganizations } from './fleet.repository.js';

/**
 * Rule: moving a fleet to another organization (PATCH `organization`) needs administrator
 * rights in both organizations. Fleet developers may otherwise update the fleet, and their
 * fleet membership would still vouch for the moved row; this closes that path.
 */
export async function checkApplicationTransfer(db: Db, actor: DataContext, body: HookBody<'application', 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (!('organization' in body) || ids.length === 0) return;
  if (hasPermission(actor.permissions, 'resin.application.update')) return; // unconditional (platform staff, rules)
  if (await lacksAdministratorOfOrganizations(db, ids, body.organization, actor.actorId)) throw new UnauthorizedError();
}
