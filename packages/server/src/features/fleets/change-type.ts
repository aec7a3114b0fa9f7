import { hasPermission } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { ForbiddenError } from '../../infra/errors.js';
import type { DataContext, HookBody } from '../../infra/odata/index.js';
import { lacksFleetAdministrator } from './fleet.repository.js';

/**
 * Rule (spec 2 §6, resin.application.change-type: administrator adds): changing a fleet's
 * application type (the legacy "upgrade type" action) needs the fleet administrator role —
 * through the organization, a fleet membership or a team's access — while developers may
 * otherwise update the fleet.
 */
export async function checkChangeType(db: Db, actor: DataContext, body: HookBody<'application', 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (!('application_type' in body) || ids.length === 0) return;
  if (hasPermission(actor.permissions, 'resin.application.update')) return; // unconditional (rules, root)
  if (await lacksFleetAdministrator(db, ids, actor.actorId)) throw new ForbiddenError("You don't have the required permission for this action");
}
