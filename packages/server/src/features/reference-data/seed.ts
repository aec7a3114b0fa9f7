import { APPLICATION_MEMBERSHIP_ROLES, APPLICATION_TYPES, CPU_ARCHITECTURES, DEVICE_TYPES, deviceTypeContract, ORGANIZATION_ROLES } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

/**
 * Reference data every installation has: CPU architectures, the device-type catalogue
 * (each type listing its own slug as an alias, as balena-sdk's lookups require),
 * application types, organization roles and fleet access roles. Idempotent: runs at every start,
 * so an existing installation takes catalogue changes (new types, names, contracts, aliases) at its next start.
 */
export async function seedReferenceData(db: Db): Promise<void> {
  await db.tx(async (tx) => {
    for (const slug of CPU_ARCHITECTURES) {
      await tx.query('INSERT INTO cpu_architecture (slug) VALUES ($1) ON CONFLICT (slug) DO NOTHING', [slug]);
    }
    for (const name of ORGANIZATION_ROLES) {
      await tx.query('INSERT INTO organization_membership_role (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [name]);
    }
    for (const name of APPLICATION_MEMBERSHIP_ROLES) {
      await tx.query('INSERT INTO application_membership_role (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [name]);
    }
    for (const t of APPLICATION_TYPES) {
      await tx.query(
        `INSERT INTO application_type (slug, name, description, is_legacy, supports_multicontainer, requires_payment)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (slug) DO UPDATE SET name = excluded.name, description = excluded.description`,
        [t.slug, t.name, t.description, t.is_legacy, t.supports_multicontainer, t.requires_payment],
      );
    }
    for (const dt of DEVICE_TYPES) {
      const contract = deviceTypeContract(dt);
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO device_type (slug, name, is_of__cpu_architecture, contract)
         SELECT $1, $2, id, $4::jsonb FROM cpu_architecture WHERE slug = $3
         ON CONFLICT (slug) DO UPDATE SET name = excluded.name, contract = excluded.contract,
           is_of__cpu_architecture = excluded.is_of__cpu_architecture
         RETURNING id`,
        [dt.slug, dt.name, dt.arch, JSON.stringify(contract)],
      );
      const id = rows[0]!.id;
      // An alias follows the catalogue: one that named another type before (raspberry-pi2 was
      // an alias of raspberrypi3 until it became its own type) moves to the type listing it now.
      for (const alias of [dt.slug, ...(dt.aliases ?? [])]) {
        await tx.query(
          `INSERT INTO device_type_alias (device_type, is_referenced_by__alias) VALUES ($1, $2)
           ON CONFLICT (is_referenced_by__alias) DO UPDATE SET device_type = excluded.device_type`,
          [id, alias],
        );
      }
    }
  });
}
