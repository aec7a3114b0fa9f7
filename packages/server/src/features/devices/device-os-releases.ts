import { OS_RELEASE_MESSAGES, osReleaseWriteBlock, supervisorUpdateBlock } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { selectOsReleaseTargets } from './device.repository.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule (issue 11 security 1, issue 17): a device's hostApp release
 * (`should_be_operated_by__release`) is a successful, final, valid release of a public host-OS
 * fleet (`is_host`, default or ESR) of the device's own type, and its supervisor release
 * (`should_be_managed_by__release`) one of the public supervisor block of its type's CPU
 * architecture (spec 2: "application slug of a public supervisor block", model os-lines.ts).
 * Nothing else may reach a device's target state through these two fields. Then the update
 * rules of spec 2 §4 (model os-updates.ts) on the versions the device reported: no OS
 * downgrade, no switch from ESR to non-ESR, an ESR switch only to a newer base; a supervisor
 * only newer, not on an ESR OS, not on an OS or supervisor too old for a supervisor-only
 * update. Checked on the rows as written, after the engine's permission and reference checks;
 * a refusal rolls the whole write back.
 */
export const SUPERVISOR_RELEASE_NOT_FOR_DEVICE = "A device's supervisor release must be a release of the public supervisor block of its CPU architecture";

export async function checkOsReleases(db: Db, body: HookBody<'device', 'POST' | 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  if (body.should_be_operated_by__release != null) {
    for (const t of await selectOsReleaseTargets(db, 'should_be_operated_by__release', ids)) {
      if (!t.allowed) throw new BadRequestError(OS_RELEASE_MESSAGES.notForType);
      const refused = osReleaseWriteBlock(t.os_version, { version: t.raw_version, esr: t.esr, basedOn: t.based_on });
      if (refused) throw new BadRequestError(refused);
    }
  }
  if (body.should_be_managed_by__release != null) {
    for (const t of await selectOsReleaseTargets(db, 'should_be_managed_by__release', ids)) {
      if (!t.allowed) throw new BadRequestError(SUPERVISOR_RELEASE_NOT_FOR_DEVICE);
      const refused = supervisorUpdateBlock({ osVersion: t.os_version, supervisorVersion: t.supervisor_version }, t.raw_version);
      if (refused) throw new BadRequestError(refused);
    }
  }
}
