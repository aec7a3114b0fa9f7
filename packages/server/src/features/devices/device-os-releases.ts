import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { hasDisallowedOsRelease, type OsReleaseField } from './device.repository.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule (issue 11, security 1): until OS updates are built out, a device's hostApp release
 * (`should_be_operated_by__release`) is a release of a public host-OS fleet (`is_host`) for
 * the device's own type, and its supervisor release (`should_be_managed_by__release`) one of
 * a public supervisor block (spec 2: "application slug of a public supervisor block": a
 * public block whose name ends in SUPERVISOR_BLOCK_SUFFIX, model os-lines.ts) for the device type's CPU architecture.
 * Nothing else may reach a device's target state through these two fields. Checked on the
 * rows as written, after the engine's permission and reference checks. The conditions are
 * SQL, in device.repository.ts.
 */
const MESSAGES: Record<OsReleaseField, string> = {
  should_be_operated_by__release: "A device's host OS release must be a release of the public host OS fleet of its device type",
  should_be_managed_by__release: "A device's supervisor release must be a release of the public supervisor block of its CPU architecture",
};

export async function checkOsReleases(db: Db, body: HookBody<'device', 'POST' | 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  for (const [field, message] of Object.entries(MESSAGES) as [OsReleaseField, string][]) {
    if (body[field] === undefined || body[field] === null) continue;
    if (await hasDisallowedOsRelease(db, field, ids)) throw new BadRequestError(message);
  }
}
