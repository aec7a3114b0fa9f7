import { randomBytes } from 'node:crypto';
import { fleetNameApiProblem } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { insertActor } from '../../infra/auth/actor.repository.js';
import { selectDefaultApplicationTypeId, selectOrganizationHandle, updateSlugs } from './fleet.repository.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule: a new application gets a valid name, a 32-hex uuid (generated unless given), its own
 * actor (for provisioning keys later), the default application type, and its slug
 * `orghandle/app_name` in lowercase.
 */
export async function prepareApplication(db: Db, body: HookBody<'application', 'POST'>): Promise<void> {
  if (typeof body.app_name !== 'string') throw new BadRequestError('missing required attributes');
  const problem = fleetNameApiProblem(body.app_name);
  if (problem) throw new BadRequestError(problem);
  if (body.uuid === undefined || body.uuid === null) {
    body.uuid = randomBytes(16).toString('hex');
  } else if (typeof body.uuid !== 'string' || !/^[0-9a-f]{32}$/.test(body.uuid)) {
    throw new BadRequestError('uuid must be 32 lowercase hexadecimal characters');
  }
  body.actor = await insertActor(db);
  if (body.application_type === undefined) {
    body.application_type = (await selectDefaultApplicationTypeId(db)) ?? null;
  }
  // The slug needs the organization's handle; an unknown organization is left to the
  // foreign-key and permission checks that follow.
  const org = typeof body.organization === 'number' ? body.organization : (body.organization as { __id?: unknown } | undefined)?.__id;
  const handle = await selectOrganizationHandle(db, org);
  body.slug = `${handle ?? 'unknown'}/${body.app_name}`.toLowerCase();
}

/** Rule: a rename keeps the name rules and moves the slug along. */
export async function checkApplicationRename(body: HookBody<'application', 'PATCH'>): Promise<void> {
  if (!('app_name' in body)) return;
  if (typeof body.app_name !== 'string') throw new BadRequestError('app_name must be a string');
  const problem = fleetNameApiProblem(body.app_name);
  if (problem) throw new BadRequestError(problem);
}

export async function updateApplicationSlugs(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await updateSlugs(db, ids);
}
