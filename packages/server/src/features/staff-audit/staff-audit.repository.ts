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

/**
 * SQL of the organization ids of the rows `ids` of `resource`, following `path`
 * (organizationPaths), with `extra` selected as well (a row's own columns, as t0).
 */
function organizationsOf(resource: string, path: readonly string[], extra = ''): string {
  if (path.length === 0) return `SELECT t0.id AS org${extra} FROM ${q(resource)} AS t0 WHERE t0.id = ANY($1::integer[])`;
  let from = `${q(resource)} AS t0`;
  let current = resource;
  for (let i = 0; i < path.length - 1; i++) {
    const fk = model[current]!.fields.find((f) => f.name === path[i])!;
    from += ` LEFT JOIN ${q(fk.references!)} AS t${i + 1} ON t${i + 1}.id = t${i}.${q(fk.name)}`;
    current = fk.references!;
  }
  return `SELECT t${path.length - 1}.${q(path[path.length - 1]!)} AS org${extra} FROM ${from} WHERE t0.id = ANY($1::integer[])`;
}

/** The rows `ids` of `resource` as they stand (every column) and each one's organization (null without `path`). */
export async function snapshotRows(db: Db, resource: string, path: readonly string[] | undefined, ids: readonly number[]): Promise<Map<number, { organization: number | null; row: Record<string, unknown> }>> {
  const sql = path
    ? organizationsOf(resource, path, ', t0.id AS id, to_jsonb(t0) AS row')
    : `SELECT NULL::integer AS org, t0.id AS id, to_jsonb(t0) AS row FROM ${q(resource)} AS t0 WHERE t0.id = ANY($1::integer[])`;
  const { rows } = await db.query<{ org: number | null; id: number; row: Record<string, unknown> }>(sql, [ids]);
  return new Map(rows.map((r) => [r.id, { organization: r.org, row: r.row }]));
}

/** Who did something, as the audit log names them (see AuditEntry). */
export interface AuditWho {
  /** The user whose identity the request carried (null: a device or a fleet's provisioning key). */
  performedAs: number | null;
  /** The person who acted: the token's actualUser when an administrator is logged in as someone. */
  performedBy: number | null;
  /** A device (device API key) or fleet (provisioning key) that acted, when no user did. */
  deviceId?: number;
  applicationId?: number;
  apiKeyId?: number;
  staffRole: AuditStaffRole | null;
}

/** One audit row per organization (kind `write` or `action`). */
export interface AuditEntry extends AuditWho {
  kind: 'write' | 'action';
  method: string;
  route: string;
  resource: string | null;
  action: string | null;
  request: string;
  requestId: string;
  /** Per organization: the rows (ids) written there and their changes. */
  byOrganization: ReadonlyMap<number, { rowIds: readonly number[]; changes: Record<string, unknown> | null }>;
}

/**
 * Writes an entry's rows, one per organization in organization order (the chain trigger
 * takes each organization's lock in that order, so two writers never wait on each other
 * crosswise). Runs in the caller's transaction when `db` is one.
 */
export async function recordAuditEntry(db: Db, e: AuditEntry): Promise<void> {
  const orgs = [...e.byOrganization.keys()].sort((a, b) => a - b);
  if (orgs.length === 0) return;
  const actorName = `COALESCE((SELECT username FROM "user" WHERE id = $2),
       (SELECT 'device ' || uuid FROM device WHERE id = $12), (SELECT 'fleet ' || slug FROM application WHERE id = $13), 'anonymous')`;
  await db.query(
    `INSERT INTO audit_event (organization, kind, is_performed_as__user, performed_as_username, is_performed_by__user, performed_by_username,
       staff_role, method, route, resource, action, request, request_id, api_key, row_ids, changes)
     SELECT o.org, $1, $2, ${actorName}, $3, COALESCE((SELECT username FROM "user" WHERE id = $3), ${actorName}),
       $4, $5, $6, $7, $8, $9, $10, (SELECT '#' || k.id || ' ' || COALESCE(k.name, '') FROM api_key k WHERE k.id = $11), o.row_ids, o.changes
     FROM unnest($14::integer[], $15::text[], $16::jsonb[]) WITH ORDINALITY AS o(org, row_ids, changes, n)
     ORDER BY o.n`,
    [
      e.kind, e.performedAs, e.performedBy, e.staffRole, e.method, e.route, e.resource, e.action, e.request, e.requestId,
      e.apiKeyId ?? null, e.deviceId ?? null, e.applicationId ?? null,
      orgs, orgs.map((o) => e.byOrganization.get(o)!.rowIds.join(',')), orgs.map((o) => JSON.stringify(e.byOrganization.get(o)!.changes)),
    ],
  );
}

/** The organizations the rows `ids` of `resource` belong to. */
export async function organizationsOfRows(db: Db, resource: string, path: readonly string[], ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ org: number }>(`SELECT DISTINCT org FROM (${organizationsOf(resource, path)}) AS r WHERE org IS NOT NULL`, [ids]);
  return rows.map((r) => r.org);
}

/** The rows of `resource` whose `column` is one of `values` (custom routes name rows by uuid, slug…). */
export async function idsByColumn(db: Db, resource: string, column: string, values: readonly string[]): Promise<number[]> {
  if (values.length === 0) return [];
  const { rows } = await db.query<{ id: number }>(`SELECT id FROM ${q(resource)} WHERE ${q(column)}::text = ANY($1::text[])`, [values]);
  return rows.map((r) => r.id);
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

/**
 * One organization's log lines (ids `ids`, in id order): each row's canonical content (the
 * jsonb the hash covers, migration 0046's audit_event_content) with its `hash`, as the text
 * PostgreSQL renders, one JSON object per line.
 */
export async function auditLines(db: Db, ids: readonly number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ line: string }>(
    `SELECT (audit_event_content(e) || jsonb_build_object('hash', e.hash))::text AS line FROM audit_event e WHERE e.id = ANY($1::integer[]) ORDER BY e.id`,
    [ids],
  );
  return rows.map((r) => r.line);
}

export interface ChainStatus {
  /** Rows checked. */
  rows: number;
  /** The last row of the chain (null: no rows). */
  lastId: number | null;
  /** Its hash, to compare with a copy kept elsewhere (a cut-off tail leaves a valid, shorter chain). */
  headHash: string | null;
  /** The first row that does not verify: its content no longer matches its hash, or it does not link to the row before it. */
  broken: { id: number; reason: 'hash' | 'link' } | null;
}

/**
 * Walks an organization's chain in id order in one statement: each row's hash recomputed
 * from its content, and its prev_hash compared with the previous row's hash (the first row's
 * must be null). Reports the first row that fails.
 */
export async function verifyChain(db: Db, organization: number): Promise<ChainStatus> {
  const { rows } = await db.query<{ n: number; last_id: number | null; head: string | null; bad_id: number | null; bad_reason: 'hash' | 'link' | null }>(
    `WITH c AS (
       SELECT e.id, e.hash, e.hash = audit_event_hash(e) AS hash_ok, e.prev_hash IS NOT DISTINCT FROM lag(e.hash) OVER (ORDER BY e.id) AS link_ok
       FROM audit_event e WHERE e.organization = $1
     ), bad AS (SELECT id, CASE WHEN NOT hash_ok THEN 'hash' ELSE 'link' END AS reason FROM c WHERE NOT (hash_ok AND link_ok) ORDER BY id LIMIT 1)
     SELECT (SELECT count(*)::integer FROM c) AS n,
            (SELECT id FROM c ORDER BY id DESC LIMIT 1) AS last_id,
            (SELECT hash FROM c ORDER BY id DESC LIMIT 1) AS head,
            (SELECT id FROM bad) AS bad_id, (SELECT reason FROM bad) AS bad_reason`,
    [organization],
  );
  const r = rows[0]!;
  return { rows: r.n, lastId: r.last_id, headHash: r.head, broken: r.bad_id === null ? null : { id: r.bad_id, reason: r.bad_reason! } };
}
