import { ACTOR_ALIAS, fleetRoleAtLeast } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { ForbiddenError, NotFoundError } from '../../infra/errors.js';
import { asRoot, odataRead, type DataContext } from '../../infra/odata/index.js';
import { generateApiKey, hashApiKey } from '../../infra/auth/api-keys.js';
import { insertApiKey } from './api-keys.repository.js';

export interface ProvisioningKeyInput {
  name: string | null;
  description: string | null;
  expiry: Date | null;
}

/**
 * Creates a provisioning key for fleet `applicationId` (spec 2 §6: operators and up manage
 * API keys). A fleet the caller cannot read is a 404; one they read without operator
 * rights a 403. The key belongs to the fleet's actor; only its hash is kept.
 */
export async function createProvisioningKey(
  db: Db,
  ctx: DataContext,
  applicationId: number,
  input: ProvisioningKeyInput,
  /** Called once the caller may make keys for the fleet (billing: a frozen organization's fleet gets none, 402). */
  beforeCreate?: (applicationId: number) => Promise<void>,
): Promise<string> {
  const visible = await odataRead<{ id: number; actor: { __id: number } }>(db, ctx, `/application(${applicationId})?$select=id,actor`);
  const fleet = visible[0];
  if (!fleet) throw new NotFoundError('Application not found');
  // The operator condition of the role table, evaluated for this caller on this fleet.
  const condition = fleetRoleAtLeast('operator').split(ACTOR_ALIAS).join(String(ctx.actorId));
  const operated = await odataRead(db, asRoot(ctx), `/application(${applicationId})?$select=id&$filter=${encodeURIComponent(condition)}`);
  if (operated.length === 0) throw new ForbiddenError("You don't have the required permission for this action");
  await beforeCreate?.(fleet.id);
  const key = generateApiKey();
  await insertApiKey(db, { keyHash: hashApiKey(key), name: input.name, description: input.description, expiry: input.expiry, actorId: fleet.actor.__id });
  return key;
}
