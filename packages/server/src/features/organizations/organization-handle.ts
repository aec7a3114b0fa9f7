import { toHandle } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ConflictError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';
import { organizationNameOrHandleTaken } from './organization.repository.js';

/**
 * Rule: an organization needs a name; its handle (lowercase [a-z0-9_]) is derived from the
 * name unless given. Names are unique case-insensitively (also enforced by a unique index).
 */
export async function prepareOrganization(db: Db, body: HookBody<'organization', 'POST'>): Promise<void> {
  if (typeof body.name !== 'string' || body.name.trim() === '') throw new BadRequestError('Organization name is required');
  body.name = body.name.trim();
  if (body.handle === undefined || body.handle === null) {
    body.handle = toHandle(body.name as string);
  } else if (typeof body.handle !== 'string' || !/^[a-z0-9_]{1,100}$/.test(body.handle)) {
    throw new BadRequestError('Organization handles may only contain lowercase letters, digits and underscores');
  }
  if (await organizationNameOrHandleTaken(db, body.name, body.handle)) throw new ConflictError('Unique key constraint violated');
}

/** Rule: renaming keeps a name; the handle stays as it was. */
export function checkOrganizationRename(body: HookBody<'organization', 'PATCH'>): void {
  if ('name' in body) {
    if (typeof body.name !== 'string' || body.name.trim() === '') throw new BadRequestError('Organization name is required');
    body.name = body.name.trim();
  }
}
