import { APPLICATION_MEMBERSHIP_ROLES, APPLICATION_TYPES, CPU_ARCHITECTURES, DEVICE_TYPES, deviceTypeContract, ORGANIZATION_ROLES } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import {
  upsertApplicationMembershipRole,
  upsertApplicationType,
  upsertCpuArchitecture,
  upsertDeviceType,
  upsertDeviceTypeAlias,
  upsertOrganizationRole,
} from './reference-data.repository.js';

/**
 * Reference data every installation has: CPU architectures, the device-type catalogue
 * (each type listing its own slug as an alias, as balena-sdk's lookups require),
 * application types, organization roles and fleet access roles. Idempotent: runs at every start,
 * so an existing installation takes catalogue changes (new types, names, contracts, aliases) at its next start.
 */
export async function seedReferenceData(db: Db): Promise<void> {
  await db.tx(async (tx) => {
    for (const slug of CPU_ARCHITECTURES) await upsertCpuArchitecture(tx, slug);
    for (const name of ORGANIZATION_ROLES) await upsertOrganizationRole(tx, name);
    for (const name of APPLICATION_MEMBERSHIP_ROLES) await upsertApplicationMembershipRole(tx, name);
    for (const t of APPLICATION_TYPES) await upsertApplicationType(tx, t);
    for (const dt of DEVICE_TYPES) {
      const id = await upsertDeviceType(tx, dt.slug, dt.name, dt.arch, deviceTypeContract(dt));
      // An alias follows the catalogue: one that named another type before (raspberry-pi2 was
      // an alias of raspberrypi3 until it became its own type) moves to the type listing it now.
      for (const alias of [dt.slug, ...(dt.aliases ?? [])]) await upsertDeviceTypeAlias(tx, id, alias);
    }
  });
}
