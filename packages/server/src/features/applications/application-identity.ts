import { randomBytes } from 'node:crypto';
import { fleetNameApiProblem } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
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
  const actor = await db.query<{ id: number }>('INSERT INTO actor DEFAULT VALUES RETURNING id');
  body.actor = actor.rows[0]!.id;
  if (body.application_type === undefined) {
    const t = await db.query<{ id: number }>(`SELECT id FROM application_type WHERE slug = 'microservices'`);
    body.application_type = t.rows[0]?.id ?? null;
  }
  // The slug needs the organization's handle; an unknown organization is left to the
  // foreign-key and permission checks that follow.
  const org = typeof body.organization === 'number' ? body.organization : (body.organization as { __id?: unknown } | undefined)?.__id;
  const { rows } = await db.query<{ handle: string }>('SELECT handle FROM organization WHERE id = $1', [org]);
  body.slug = `${rows[0]?.handle ?? 'unknown'}/${body.app_name}`.toLowerCase();
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
  await db.query(
    `UPDATE application a SET slug = lower(o.handle || '/' || a.app_name)
       FROM organization o WHERE o.id = a.organization AND a.id = ANY($1::int[])`,
    [ids],
  );
}
