import { SUPERVISOR_BLOCK_SUFFIX } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule (issue 11, security 1): until OS updates are built out, a device's hostApp release
 * (`should_be_operated_by__release`) is a release of a public host-OS fleet (`is_host`) for
 * the device's own type, and its supervisor release (`should_be_managed_by__release`) one of
 * a public supervisor block (spec 2: "application slug of a public supervisor block": a
 * public block whose name ends in SUPERVISOR_BLOCK_SUFFIX, model os-lines.ts) for the device type's CPU architecture.
 * Nothing else may reach a device's target state through these two fields. Checked on the
 * rows as written, after the engine's permission and reference checks.
 */
const RULES = {
  should_be_operated_by__release: {
    allowed: `a.is_public AND a.is_host AND a.is_for__device_type = d.is_of__device_type`,
    message: "A device's host OS release must be a release of the public host OS fleet of its device type",
  },
  should_be_managed_by__release: {
    allowed: `a.is_public AND NOT a.is_host AND a.is_of__class = 'block' AND right(lower(a.app_name), ${SUPERVISOR_BLOCK_SUFFIX.length}) = '${SUPERVISOR_BLOCK_SUFFIX}'
      AND (SELECT is_of__cpu_architecture FROM device_type WHERE id = a.is_for__device_type)
        = (SELECT is_of__cpu_architecture FROM device_type WHERE id = d.is_of__device_type)`,
    message: "A device's supervisor release must be a release of the public supervisor block of its CPU architecture",
  },
} as const;

export async function checkOsReleases(db: Db, body: HookBody<'device', 'POST' | 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  for (const [field, rule] of Object.entries(RULES)) {
    if (body[field] === undefined || body[field] === null) continue;
    const { rowCount } = await db.query(
      `SELECT 1 FROM device d JOIN release r ON r.id = d."${field}" JOIN application a ON a.id = r.belongs_to__application
        WHERE d.id = ANY($1::int[]) AND NOT (${rule.allowed}) LIMIT 1`,
      [ids],
    );
    if (rowCount) throw new BadRequestError(rule.message);
  }
}
