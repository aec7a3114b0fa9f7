import { OS_RELEASE_TAGS, RELEASE_POLICY_TAG } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

/** The host OS update's hand-written SQL (issue 17): the device's facts and its type's catalogue releases. */

export interface OsUpdateDeviceRow {
  id: number;
  is_online: boolean;
  os_version: string | null;
  os_variant: string | null;
  device_type: string;
  device_type_id: number;
  host_release: number | null;
}

export async function selectOsUpdateDevice(db: Db, deviceId: number): Promise<OsUpdateDeviceRow | null> {
  const { rows } = await db.query<OsUpdateDeviceRow>(
    `SELECT d.id, d.is_online, d.os_version, d.os_variant, dt.slug AS device_type, dt.id AS device_type_id,
            d.should_be_operated_by__release AS host_release
       FROM device d JOIN device_type dt ON dt.id = d.is_of__device_type
      WHERE d.id = $1`,
    [deviceId],
  );
  return rows[0] ?? null;
}

export interface CatalogueOsReleaseRow {
  id: number;
  raw_version: string;
  /** The `version` release tag (`6.1.0+rev0`). */
  version: string | null;
  /** Of an ESR host fleet (fleet tag release-policy = esr). */
  esr: boolean;
  /** The `meta-balena-base` release tag (ESR releases). */
  based_on: string | null;
  /** The first image location of the release, if it has images (the seeded catalogue's have none). */
  image: string | null;
}

/**
 * The host OS releases a device of type `deviceTypeId` may be updated to: successful, final,
 * valid releases of the public host fleets (default and ESR) of that type — the releases
 * `should_be_operated_by__release` accepts (features/devices) and balena-sdk's
 * `os.getAvailableOsVersions` lists.
 */
export async function selectCatalogueOsReleases(db: Db, deviceTypeId: number): Promise<CatalogueOsReleaseRow[]> {
  const { rows } = await db.query<CatalogueOsReleaseRow>(
    `SELECT r.id, r.raw_version,
            (SELECT value FROM release_tag t WHERE t.release = r.id AND t.tag_key = $2) AS version,
            EXISTS (SELECT 1 FROM application_tag t WHERE t.application = a.id AND t.tag_key = $3 AND lower(t.value) = 'esr') AS esr,
            (SELECT value FROM release_tag t WHERE t.release = r.id AND t.tag_key = $4) AS based_on,
            (SELECT i.is_stored_at__image_location FROM image__is_part_of__release ri JOIN image i ON i.id = ri.image
              WHERE ri.is_part_of__release = r.id ORDER BY i.id LIMIT 1) AS image
       FROM release r JOIN application a ON a.id = r.belongs_to__application
      WHERE a.is_public AND a.is_host AND a.is_for__device_type = $1
        AND r.status = 'success' AND r.is_final AND NOT r.is_invalidated
      ORDER BY r.id`,
    [deviceTypeId, OS_RELEASE_TAGS.version, RELEASE_POLICY_TAG, OS_RELEASE_TAGS.basedOn],
  );
  return rows;
}
