import { applicationNameClash } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ConflictError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule: transferring a fleet (PATCH `organization`) needs a different organization, a fleet
 * without devices, and no application of the same name (case-insensitive) in the target
 * organization (spec 2 §5 Fleets, transfer ownership). Runs after the administrator check.
 */
export async function checkTransferConditions(db: Db, body: HookBody<'application', 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (!('organization' in body) || ids.length === 0) return;
  const target = body.organization;
  const { rows } = await db.query<{ id: number; app_name: string; organization: number; devices: boolean }>(
    `SELECT a.id, a.app_name, a.organization, EXISTS (SELECT 1 FROM device d WHERE d.belongs_to__application = a.id) AS devices
       FROM application a WHERE a.id = ANY($1::int[]) ORDER BY a.id`,
    [ids],
  );
  for (const app of rows) {
    if (app.organization === target) throw new BadRequestError('The fleet already belongs to this organization: choose a different one');
    if (app.devices) throw new BadRequestError('Fleets with devices cannot be transferred: move or delete the devices first');
  }
  for (const app of rows) {
    const { rows: existing } = await db.query<{ app_name: string; is_of__class: string }>(
      'SELECT app_name, is_of__class FROM application WHERE organization = $1 AND lower(app_name) = lower($2) AND id <> ALL($3::int[])',
      [target, app.app_name, ids],
    );
    const clash = applicationNameClash(app.app_name, existing);
    if (clash) throw new ConflictError(`${clash} in the target organization`);
  }
}
