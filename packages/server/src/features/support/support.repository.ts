import type { TicketField, TicketFieldInput, TicketFieldOption, TicketStatus } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

/** The helpdesk's tables (migration 0040). */

export interface RequesterRow {
  id: number;
  username: string;
  email: string;
  is_verified: boolean;
}

export interface OrganizationRow {
  id: number;
  name: string;
  handle: string;
  role: string;
}

/** The user's membership of `orgId` (undefined: not a member, or no such organization). */
export async function selectMembership(db: Db, orgId: number, userId: number): Promise<OrganizationRow | undefined> {
  const { rows } = await db.query<OrganizationRow>(
    `SELECT o.id, o.name, o.handle, r.name AS role
       FROM organization o
       JOIN organization_membership m ON m.is_member_of__organization = o.id AND m."user" = $2
       JOIN organization_membership_role r ON r.id = m.organization_membership_role
      WHERE o.id = $1`,
    [orgId, userId],
  );
  return rows[0];
}

export async function selectRequester(db: Db, userId: number): Promise<RequesterRow | undefined> {
  const { rows } = await db.query<RequesterRow>('SELECT id, username, email, is_verified FROM "user" WHERE id = $1', [userId]);
  return rows[0];
}

export async function selectUsername(db: Db, userId: number): Promise<string> {
  const { rows } = await db.query<{ username: string }>('SELECT username FROM "user" WHERE id = $1', [userId]);
  return rows[0]?.username ?? '';
}

// ---- fields

const FIELD_COLUMNS = 'id, type, title, title_in_portal, required_in_portal, active, position, custom_field_options';

/** Every field in form order (`activeOnly`: what the ticket form shows). */
export async function selectFields(db: Db, activeOnly: boolean): Promise<TicketField[]> {
  const { rows } = await db.query<TicketField>(
    `SELECT ${FIELD_COLUMNS} FROM support_ticket_field ${activeOnly ? 'WHERE active' : ''} ORDER BY position, id`,
  );
  return rows;
}

export async function selectField(db: Db, id: number, lock = false): Promise<TicketField | undefined> {
  const { rows } = await db.query<TicketField>(`SELECT ${FIELD_COLUMNS} FROM support_ticket_field WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0];
}

export async function countFields(db: Db): Promise<number> {
  // Serialises additions: the count and the position are read under the lock.
  await db.query('LOCK TABLE support_ticket_field IN SHARE ROW EXCLUSIVE MODE');
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM support_ticket_field');
  return rows[0]?.n ?? 0;
}

const options = (o: TicketFieldOption[] | null) => (o === null || o.length === 0 ? null : JSON.stringify(o.map((x) => ({ name: x.name.trim(), value: x.value }))));

export async function insertField(db: Db, f: TicketFieldInput): Promise<TicketField> {
  const { rows } = await db.query<TicketField>(
    `INSERT INTO support_ticket_field (type, title, title_in_portal, required_in_portal, active, position, custom_field_options)
     VALUES ($1, $2, $3, $4, $5, (SELECT coalesce(max(position), 0) + 1 FROM support_ticket_field), $6::jsonb)
     RETURNING ${FIELD_COLUMNS}`,
    [f.type, f.title.trim(), f.title_in_portal.trim(), f.required_in_portal, f.active, options(f.custom_field_options)],
  );
  return rows[0]!;
}

export async function updateField(db: Db, id: number, f: TicketFieldInput): Promise<TicketField> {
  const { rows } = await db.query<TicketField>(
    `UPDATE support_ticket_field SET title = $2, title_in_portal = $3, required_in_portal = $4, active = $5, custom_field_options = $6::jsonb
      WHERE id = $1 RETURNING ${FIELD_COLUMNS}`,
    [id, f.title.trim(), f.title_in_portal.trim(), f.required_in_portal, f.active, options(f.custom_field_options)],
  );
  return rows[0]!;
}

/** Puts the fields in the order of `ids` (every field id, once each). */
export async function reorderFields(db: Db, ids: readonly number[]): Promise<void> {
  await db.query(
    `UPDATE support_ticket_field f SET position = o.ord FROM unnest($1::int[]) WITH ORDINALITY AS o(id, ord) WHERE f.id = o.id`,
    [ids],
  );
}

// ---- uploads

export interface UploadRow {
  id: number;
  token: string;
  organization: number;
  uploaded_by: number | null;
  ticket: number | null;
  file_key: string;
  filename: string;
  content_type: string;
  size: number;
}

export async function insertUpload(
  db: Db,
  u: { token: string; organization: number; uploadedBy: number; fileKey: string; filename: string; contentType: string; size: number },
): Promise<void> {
  await db.query(
    `INSERT INTO support_upload (token, organization, uploaded_by, file_key, filename, content_type, size) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [u.token, u.organization, u.uploadedBy, u.fileKey, u.filename, u.contentType, u.size],
  );
}

/** The caller's own unattached uploads to `orgId` among `tokens` (locked: one ticket takes them). */
export async function selectOwnUploads(db: Db, orgId: number, userId: number, tokens: readonly string[]): Promise<UploadRow[]> {
  if (tokens.length === 0) return [];
  const { rows } = await db.query<UploadRow>(
    `SELECT id, token, organization, uploaded_by, ticket, file_key, filename, content_type, size FROM support_upload
      WHERE token = ANY($1::text[]) AND organization = $2 AND uploaded_by = $3 AND ticket IS NULL FOR UPDATE`,
    [tokens, orgId, userId],
  );
  return rows;
}

export async function attachUploads(db: Db, ticket: number, ids: readonly number[]): Promise<void> {
  if (ids.length > 0) await db.query('UPDATE support_upload SET ticket = $1 WHERE id = ANY($2::int[])', [ticket, ids]);
}

/** Drops uploads no ticket took within `olderThan` (their files follow through the garbage trigger). */
export async function deleteStaleUploads(db: Db, olderThan: Date): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM support_upload WHERE ticket IS NULL AND created_at < $1', [olderThan]);
  return rowCount ?? 0;
}

export async function selectTicketUploads(db: Db, ticket: number): Promise<UploadRow[]> {
  const { rows } = await db.query<UploadRow>(
    `SELECT id, token, organization, uploaded_by, ticket, file_key, filename, content_type, size FROM support_upload WHERE ticket = $1 ORDER BY id`,
    [ticket],
  );
  return rows;
}

// ---- tickets

export interface FieldValue {
  id: number;
  title: string;
  type: string;
  value: string | boolean;
  /** What the value reads as (a select's option name). */
  display: string;
}

export interface TicketRow {
  id: number;
  created_at: Date;
  updated_at: Date;
  organization: number;
  organization_name: string;
  organization_handle: string;
  requester: number | null;
  requester_username: string;
  requester_email: string;
  cc_emails: string[];
  subject: string;
  description: string;
  field_values: FieldValue[];
  status: TicketStatus;
  zendesk_id: string | null;
  forward_error: string | null;
}

const TICKET_SELECT = `SELECT t.id, t.created_at, t.updated_at, t.organization, o.name AS organization_name, o.handle AS organization_handle,
  t.requester, t.requester_username, t.requester_email, t.cc_emails, t.subject, t.description, t.field_values, t.status,
  t.zendesk_id::text AS zendesk_id, t.forward_error
  FROM support_ticket t JOIN organization o ON o.id = t.organization`;

export async function insertTicket(
  db: Db,
  t: { organization: number; requester: RequesterRow; ccEmails: string[]; subject: string; description: string; fieldValues: FieldValue[] },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO support_ticket (organization, requester, requester_username, requester_email, cc_emails, subject, description, field_values)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb) RETURNING id`,
    [t.organization, t.requester.id, t.requester.username, t.requester.email, t.ccEmails, t.subject, t.description, JSON.stringify(t.fieldValues)],
  );
  return rows[0]!.id;
}

export async function selectTicket(db: Db, id: number, lock = false): Promise<TicketRow | undefined> {
  const { rows } = await db.query<TicketRow>(`${TICKET_SELECT} WHERE t.id = $1${lock ? ' FOR UPDATE OF t' : ''}`, [id]);
  return rows[0];
}

/** Newest first; `organization` limits it to one organization's tickets. */
export async function selectTickets(
  db: Db,
  filter: { status?: TicketStatus | undefined; organization?: number | undefined },
  limit: number,
  offset: number,
): Promise<{ rows: TicketRow[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.status) where.push(`t.status = $${params.push(filter.status)}`);
  if (filter.organization !== undefined) where.push(`t.organization = $${params.push(filter.organization)}`);
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM support_ticket t ${clause}`, params);
  const { rows } = await db.query<TicketRow>(
    `${TICKET_SELECT} ${clause} ORDER BY t.created_at DESC, t.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );
  return { rows, total: total.rows[0]?.n ?? 0 };
}

export async function setTicketStatus(db: Db, id: number, status: TicketStatus): Promise<void> {
  await db.query('UPDATE support_ticket SET status = $2, updated_at = now() WHERE id = $1', [id, status]);
}

export async function setForwarded(db: Db, id: number, result: { zendeskId: number | null; error: string | null }): Promise<void> {
  await db.query('UPDATE support_ticket SET zendesk_id = $2, forward_error = $3 WHERE id = $1', [id, result.zendeskId, result.error]);
}

export interface MessageRow {
  id: number;
  created_at: Date;
  author_username: string;
  body: string;
}

export async function insertMessage(db: Db, m: { ticket: number; author: number; authorUsername: string; body: string }): Promise<MessageRow> {
  const { rows } = await db.query<MessageRow>(
    `INSERT INTO support_ticket_message (ticket, author, author_username, body) VALUES ($1, $2, $3, $4) RETURNING id, created_at, author_username, body`,
    [m.ticket, m.author, m.authorUsername, m.body],
  );
  return rows[0]!;
}

export async function selectMessages(db: Db, ticket: number): Promise<MessageRow[]> {
  const { rows } = await db.query<MessageRow>(
    'SELECT id, created_at, author_username, body FROM support_ticket_message WHERE ticket = $1 ORDER BY created_at, id LIMIT 500',
    [ticket],
  );
  return rows;
}
