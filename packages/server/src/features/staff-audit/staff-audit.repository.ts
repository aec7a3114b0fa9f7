import { model, type AuditStaffRole } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

/** The audit trail's SQL (table `audit_event`, migration 0041). */

/** At most this many organizations are recorded for one request (a page of 10,000 rows could span as many). */
export const MAX_AUDITED_ORGANIZATIONS = 1000;

export interface StaffRead {
  /** Whose identity the request carried (the staff member, or the user logged in as). */
  performedAs: number;
  /** The staff member (the token's actualUser). */
  performedBy: number;
  staffRole: AuditStaffRole | null;
  method: string;
  route: string;
  resource: string;
  request: string;
  requestId: string;
}

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** SQL of the organization ids of the rows `ids` of `resource`, following `path` (organizationPaths). */
function organizationsOf(resource: string, path: readonly string[]): string {
  if (path.length === 0) return `SELECT t0.id AS org FROM ${q(resource)} AS t0 WHERE t0.id = ANY($1::integer[])`;
  let from = `${q(resource)} AS t0`;
  let current = resource;
  for (let i = 0; i < path.length - 1; i++) {
    const fk = model[current]!.fields.find((f) => f.name === path[i])!;
    from += ` JOIN ${q(fk.references!)} AS t${i + 1} ON t${i + 1}.id = t${i}.${q(fk.name)}`;
    current = fk.references!;
  }
  return `SELECT t${path.length - 1}.${q(path[path.length - 1]!)} AS org FROM ${from} WHERE t0.id = ANY($1::integer[])`;
}

/**
 * Records one staff read per organization the rows `ids` of `resource` belong to, in one
 * statement and at most MAX_AUDITED_ORGANIZATIONS rows, leaving out the organizations the
 * staff member belongs to as an ordinary member (their own organizations). Answers how many
 * rows it wrote.
 */
export async function recordStaffRead(db: Db, resource: string, path: readonly string[], ids: readonly number[], read: StaffRead): Promise<number> {
  if (ids.length === 0) return 0;
  const { rowCount } = await db.query(
    `INSERT INTO audit_event (organization, kind, is_performed_as__user, performed_as_username, is_performed_by__user, performed_by_username,
       staff_role, method, route, resource, request, request_id)
     SELECT o.org, 'staff_read', $2, (SELECT username FROM "user" WHERE id = $2), $3, (SELECT username FROM "user" WHERE id = $3),
       $4, $5, $6, $7, $8, $9
     FROM (SELECT DISTINCT org FROM (${organizationsOf(resource, path)}) AS r WHERE org IS NOT NULL) AS o
     WHERE NOT EXISTS (SELECT 1 FROM organization_membership m WHERE m.is_member_of__organization = o.org AND m."user" = $3)
     ORDER BY o.org
     LIMIT ${MAX_AUDITED_ORGANIZATIONS}`,
    [ids, read.performedAs, read.performedBy, read.staffRole, read.method, read.route, read.resource, read.request, read.requestId],
  );
  return rowCount ?? 0;
}

/** The device with this uuid, if any (custom device routes name devices by uuid). */
export async function deviceIdByUuid(db: Db, uuid: string): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM device WHERE uuid = $1', [uuid]);
  return rows[0]?.id;
}

/** The platform role of a user (the staff member behind a login-as session). */
export async function platformRoleOf(db: Db, userId: number): Promise<string | null> {
  const { rows } = await db.query<{ platform_role: string | null }>('SELECT platform_role FROM "user" WHERE id = $1', [userId]);
  return rows[0]?.platform_role ?? null;
}
