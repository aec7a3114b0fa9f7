import { createHash } from 'node:crypto';
import {
  AGENT_BUILD_TAG,
  AGENT_VERSION,
  APPLICATION_MEMBERSHIP_ROLES,
  APPLICATION_TYPES,
  catalogueFleets,
  CPU_ARCHITECTURES,
  DEFAULT_OS_RELEASES,
  DEVICE_TYPES,
  deviceTypeContract,
  ESR_LINE_TAGS,
  ESR_OS_RELEASES,
  ORGANIZATION_ROLES,
  OS_RELEASE_TAGS,
  OS_VARIANT_TAG_VALUES,
  OS_VARIANTS,
  osReleaseRawVersion,
  osReleaseVersionTag,
  PLATFORM_ORGANIZATION,
  RELEASE_POLICY_TAG,
  SUPERVISOR_RELEASES,
  type CatalogueOsRelease,
  type OsVariant,
} from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { holdStartLock, START_LOCKS } from '../../infra/db/start-locks.js';
import {
  upsertApplicationMembershipRole,
  upsertApplicationTags,
  upsertApplicationType,
  upsertCatalogueFleet,
  upsertCatalogueReleases,
  upsertCpuArchitecture,
  upsertDeviceType,
  upsertDeviceTypeAlias,
  upsertOrganizationRole,
  markBundledSupervisorBuild,
  upsertPlatformOrganization,
  type CatalogueReleaseValues,
} from './reference-data.repository.js';

/**
 * Reference data every installation has: CPU architectures, the device-type catalogue
 * (each type listing its own slug as an alias, as balena-sdk's lookups require),
 * application types, organization roles and fleet access roles, and the public host OS and
 * supervisor catalogue of the platform organization (issue 17, model os-catalogue.ts). Idempotent: runs at every start,
 * so an existing installation takes catalogue changes (new types, names, contracts, aliases) at its next start.
 */
export async function seedReferenceData(db: Db): Promise<void> {
  await db.tx(async (tx) => {
    // Nodes starting together seed one after the other (infra/db/start-locks.ts).
    await holdStartLock(tx, START_LOCKS.seed);
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
    await seedOsCatalogue(tx);
  });
}

/** A stable commit for a catalogue release: the same on every installation and every start. */
export const catalogueCommit = (fleetSlug: string, rawVersion: string) => createHash('sha1').update(`${fleetSlug}@${rawVersion}`).digest('hex');

/** The release row (fields and tags) of OS release `r` in `variant`: the same for seeded and published releases. */
export function osReleaseRow(r: CatalogueOsRelease, variant: OsVariant, commit: string): CatalogueReleaseValues {
  return {
    commit,
    semver: r.semver,
    revision: r.revision,
    raw_version: osReleaseRawVersion(r, variant),
    variant,
    phase: r.phase ?? null,
    known_issue_list: r.knownIssues ?? null,
    note: r.note ?? null,
    created_at: r.date,
    tags: {
      [OS_RELEASE_TAGS.version]: osReleaseVersionTag(r),
      [OS_RELEASE_TAGS.variant]: OS_VARIANT_TAG_VALUES[variant],
      [OS_RELEASE_TAGS.basedOn]: r.basedOn ?? r.semver,
    },
  };
}

function osReleaseRows(fleetSlug: string, releases: readonly CatalogueOsRelease[]): CatalogueReleaseValues[] {
  return releases.flatMap((r) => OS_VARIANTS.map((variant) => osReleaseRow(r, variant, catalogueCommit(fleetSlug, osReleaseRawVersion(r, variant)))));
}

/** The catalogue's supervisor releases and, when the catalogue lacks it, the server's own agent version (dated at its first start). */
function supervisorReleases(): { semver: string; date: string; note?: string }[] {
  const list: { semver: string; date: string; note?: string }[] = [...SUPERVISOR_RELEASES];
  if (!list.some((r) => r.semver === AGENT_VERSION)) list.push({ semver: AGENT_VERSION, date: new Date().toISOString(), note: 'Flotilla agent bundled with this server.' });
  return list;
}

/** The platform organization's public host-OS fleets and supervisor blocks with their releases. */
async function seedOsCatalogue(db: Db): Promise<void> {
  const org = await upsertPlatformOrganization(db, PLATFORM_ORGANIZATION.handle, PLATFORM_ORGANIZATION.name);
  for (const f of catalogueFleets()) {
    const slug = `${PLATFORM_ORGANIZATION.handle}/${f.appName}`;
    const host = f.kind === 'host';
    const id = await upsertCatalogueFleet(db, {
      organization: org,
      appName: f.appName,
      slug,
      deviceType: f.deviceType,
      isHost: host,
      klass: host ? 'app' : 'block',
      archived: f.archived,
    });
    if (!host) {
      await upsertCatalogueReleases(
        db,
        id,
        supervisorReleases().map((r) => ({
          commit: catalogueCommit(slug, r.semver),
          semver: r.semver,
          revision: 0,
          raw_version: r.semver,
          variant: '',
          phase: null,
          known_issue_list: null,
          note: r.note ?? null,
          created_at: r.date,
          tags: {},
        })),
      );
      // The server's own agent is a supervisor release of every architecture (it is pure JavaScript).
      await markBundledSupervisorBuild(db, id, catalogueCommit(slug, AGENT_VERSION), AGENT_BUILD_TAG);
    } else if (f.esr) {
      await upsertApplicationTags(db, id, { [RELEASE_POLICY_TAG]: 'esr', ...ESR_LINE_TAGS });
      await upsertCatalogueReleases(db, id, osReleaseRows(slug, ESR_OS_RELEASES));
    } else {
      await upsertCatalogueReleases(db, id, osReleaseRows(slug, DEFAULT_OS_RELEASES));
    }
  }
}
