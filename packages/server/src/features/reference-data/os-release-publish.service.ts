import { checkOsReleasePublish, hostFleetName, OS_PUBLISH_MESSAGES, PLATFORM_ORGANIZATION, type OsReleasePublishInput } from '@flotilla/model';
import { randomBytes } from 'node:crypto';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, NotFoundError } from '../../infra/errors.js';
import { invalidateRelease, lockCatalogueOsRelease, lockHostFleet, releaseIdByCommit, selectRawVersions, upsertCatalogueReleases } from './reference-data.repository.js';
import { osReleaseRow } from './seed.js';

export interface PublishedOsRelease {
  id: number;
  deviceType: string;
  fleet: string;
  raw_version: string;
  variant: string;
  phase: string | null;
  esr: boolean;
}

export const OS_RELEASE_NOT_FOUND = 'OS release not found';
export const OS_RELEASE_ALREADY_WITHDRAWN = 'This OS release is already withdrawn';

/**
 * Publishes a host OS release (platform administrators; the route checks the caller). The
 * model's `checkOsReleasePublish` decides; the release joins the type's host fleet (its ESR
 * fleet for an ESR version) with the seeded catalogue's fields and tags, written as the
 * server (the catalogue is nobody's to write through the data API). A commit of its own
 * (random), so the seed at start never changes it.
 */
export async function publishOsRelease(db: Db, input: OsReleasePublishInput, now: Date): Promise<PublishedOsRelease> {
  const first = checkOsReleasePublish(input);
  if (!first.release) throw new BadRequestError(first.error);
  return db.tx(async (tx) => {
    const fleet = await lockHostFleet(tx, PLATFORM_ORGANIZATION.handle, hostFleetName(first.release.deviceType, first.release.esr));
    // The seed makes a fleet for every type the model knows; one missing is not a catalogue type here.
    if (!fleet) throw new BadRequestError(OS_PUBLISH_MESSAGES.unknownDeviceType);
    const checked = checkOsReleasePublish(input, await selectRawVersions(tx, fleet.id));
    if (!checked.release) throw new BadRequestError(checked.error);
    const r = checked.release;
    const commit = randomBytes(16).toString('hex');
    const row = osReleaseRow(
      { semver: r.semver, revision: r.revision, date: now.toISOString(), basedOn: r.basedOn, ...(r.phase && { phase: r.phase }), ...(r.knownIssues && { knownIssues: r.knownIssues }), ...(r.note && { note: r.note }) },
      r.variant,
      commit,
    );
    await upsertCatalogueReleases(tx, fleet.id, [row]);
    return { id: await releaseIdByCommit(tx, fleet.id, commit), deviceType: r.deviceType, fleet: fleet.slug, raw_version: row.raw_version, variant: r.variant, phase: r.phase, esr: r.esr };
  });
}

/**
 * Withdraws a host OS release of the catalogue (seeded or published): `is_invalidated`, so
 * balena-sdk's `os.*` no longer offer it and no device may be given it. Any other release
 * (an organization's, a supervisor's, one that does not exist) is 404: nothing here touches it.
 */
export async function withdrawOsRelease(db: Db, release: number): Promise<{ id: number; raw_version: string; is_invalidated: true }> {
  return db.tx(async (tx) => {
    const row = await lockCatalogueOsRelease(tx, PLATFORM_ORGANIZATION.handle, release);
    if (!row) throw new NotFoundError(OS_RELEASE_NOT_FOUND);
    if (row.is_invalidated) throw new BadRequestError(OS_RELEASE_ALREADY_WITHDRAWN);
    await invalidateRelease(tx, release);
    return { id: row.id, raw_version: row.raw_version, is_invalidated: true };
  });
}
