import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AUDIT_REQUEST_MAX_LENGTH, model } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import type { WriteAuditor } from '../../infra/odata/index.js';
import type { Rules } from '../../infra/app/context.js';
import { organizationPaths } from './organization-paths.js';
import { idsByColumn, organizationsOfRows, recordAuditEntry, snapshotRows, type AuditWho } from './staff-audit.repository.js';
import { staffOf } from './staff-audit.js';

/**
 * Issue 21 item 5: the audit log of every write. Two mechanisms, one each for the two ways
 * state changes:
 * - the data API: the engine (infra/odata/write.ts) hands every write of its HTTP route to
 *   this WriteAuditor, which reads the rows before and after in the write's transaction and
 *   records one row per organization concerned, with the fields that changed;
 * - custom routes: a route declares `config.audit` (its action's name and where the rows it
 *   touches are named); one onSend hook records a successful answer before it is sent.
 *   Routes that change no organization's state say why on AUDIT_EXEMPT (audit-exemptions.ts);
 *   audit-coverage.api.test.ts fails on a state-changing route that does neither.
 */

/** Where a custom route names the rows it acts on. */
export interface AuditTarget {
  resource: string;
  from: 'params' | 'body' | 'query';
  /** The request field (a value or an array of values). */
  field: string;
  /** The column it matches (default `id`). */
  column?: string;
}

export interface AuditDeclaration {
  /** The action's name as the log shows it (`supervisor.reboot`, `invitation.accept`). */
  action: string;
  /** The rows acted on; handlers that only learn them on the way add `request.auditTargets`. */
  targets?: readonly AuditTarget[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This state-changing custom route's entry in the audit log (features/staff-audit/audit-log.ts). */
    audit?: AuditDeclaration;
  }
  interface FastifyRequest {
    /** Rows a custom route acted on that its declaration cannot name (an invitation's organization). */
    auditTargets?: { resource: string; ids: number[] }[];
  }
}

/** What the log keeps of a secret: that it changed, never the value. */
export const MASKED = '[masked]';
/**
 * Variables whose name looks like a secret (`DB_PASSWORD`, `API_TOKEN`, `AWS_SECRET_KEY`) keep
 * their value out of the log too: the log is exported and travels further than the fleet.
 */
export const SECRET_NAME = /pass|secret|token|key|credential|private|auth/i;

const secretFields = new Map<string, ReadonlySet<string>>(
  Object.values(model).map((r) => [r.name, new Set<string>(r.fields.filter((f) => 'secret' in f && f.secret).map((f) => f.name))]),
);

function masked(resource: string, row: Record<string, unknown>, field: string, value: unknown): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (secretFields.get(resource)?.has(field)) return MASKED;
  if (field === 'value' && typeof row.name === 'string' && SECRET_NAME.test(row.name)) return MASKED;
  return value;
}

/**
 * The fields of one row that changed, `{ before, after }` (a created row: only after, its
 * non-null fields; a deleted one: only before). Secrets masked.
 */
export function rowChanges(resource: string, before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): { before?: Record<string, unknown>; after?: Record<string, unknown> } {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const n of names) {
    const was = before?.[n] ?? null;
    const is = after?.[n] ?? null;
    if (JSON.stringify(was) === JSON.stringify(is)) continue;
    if (before) b[n] = masked(resource, before, n, was);
    if (after) a[n] = masked(resource, after, n, is);
  }
  return { ...(before ? { before: b } : {}), ...(after ? { after: a } : {}) };
}

const cut = (text: string, max = AUDIT_REQUEST_MAX_LENGTH) => (text.length > max ? text.slice(0, max) : text);

/** Who a request's actor is, as the audit log names them. */
export async function whoOf(db: Db, request: FastifyRequest): Promise<AuditWho> {
  const actor = request.actor;
  const staff = await staffOf(db, actor);
  if (staff) return { ...staff, ...(actor?.apiKeyId !== undefined ? { apiKeyId: actor.apiKeyId } : {}) };
  return {
    performedAs: actor?.userId ?? null,
    performedBy: actor?.userId ?? null,
    staffRole: null,
    ...(actor?.deviceId !== undefined ? { deviceId: actor.deviceId } : {}),
    ...(actor?.applicationId !== undefined ? { applicationId: actor.applicationId } : {}),
    ...(actor?.apiKeyId !== undefined ? { apiKeyId: actor.apiKeyId } : {}),
  };
}

export function setupAuditLog(app: FastifyInstance, rules: Rules): void {
  const paths = organizationPaths();
  const pool = app.context.db;

  const auditor: WriteAuditor = {
    snapshot: (tx, resource, ids) => snapshotRows(tx, resource, paths.get(resource), ids),
    async record({ tx, origin, resource, method, ids, before, after }) {
      // An organization deleted takes its log with it (ON DELETE CASCADE): nowhere to record.
      if (resource === 'organization' && method === 'DELETE') return;
      const byOrganization = new Map<number, { rowIds: number[]; changes: Record<string, unknown> }>();
      for (const id of ids) {
        const was = before?.get(id);
        const is = after?.get(id);
        const orgs = new Set([was?.organization, is?.organization].filter((o): o is number => typeof o === 'number'));
        if (orgs.size === 0) continue; // a row of no organization (a user's own): no organization's log
        const changes = rowChanges(resource, was?.row, is?.row);
        if (method === 'PATCH' && Object.keys(changes.after ?? {}).length === 0) continue; // nothing changed
        for (const org of orgs) {
          const entry = byOrganization.get(org) ?? { rowIds: [], changes: {} };
          entry.rowIds.push(id);
          entry.changes[String(id)] = changes;
          byOrganization.set(org, entry);
        }
      }
      if (byOrganization.size === 0) return;
      const { request, prefix, url } = origin;
      await recordAuditEntry(tx, {
        ...(await whoOf(tx, request)),
        kind: 'write',
        method: request.method,
        route: `${prefix}/${resource}`,
        resource,
        action: null,
        request: cut(`${prefix}${url}`),
        requestId: String(request.id),
        byOrganization,
      });
    },
  };
  rules.setWriteAuditor(auditor);

  // Custom routes: a successful answer of a route declaring `config.audit` is recorded right
  // before it is sent (these routes run no single transaction the log could join; an error
  // here turns the answer into a 500, so an acknowledged action always has its row).
  app.addHook('onSend', async (request, reply, payload) => {
    const declared = request.routeOptions.config?.audit;
    if (!declared || reply.statusCode >= 400) return payload;
    const byOrganization = new Map<number, { rowIds: number[]; changes: null }>();
    const targets: { resource: string; ids: number[] }[] = [...(request.auditTargets ?? [])];
    for (const t of declared.targets ?? []) {
      const source = (request[t.from] ?? {}) as Record<string, unknown>;
      const raw = source[t.field];
      const values = (Array.isArray(raw) ? raw : [raw]).filter((v) => typeof v === 'string' || typeof v === 'number').map(String);
      if (values.length === 0) continue;
      const ids = !t.column || t.column === 'id' ? values.map(Number).filter(Number.isSafeInteger) : await idsByColumn(pool, t.resource, t.column, values);
      targets.push({ resource: t.resource, ids });
    }
    for (const { resource, ids } of targets) {
      const path = paths.get(resource);
      if (!path) continue;
      for (const org of await organizationsOfRows(pool, resource, path, ids)) {
        const entry = byOrganization.get(org) ?? { rowIds: [], changes: null };
        entry.rowIds.push(...ids);
        byOrganization.set(org, entry);
      }
    }
    await recordAuditEntry(pool, {
      ...(await whoOf(pool, request)),
      kind: 'action',
      method: request.method,
      route: request.routeOptions.url ?? request.url.split('?')[0]!,
      resource: targets[0]?.resource ?? null,
      action: declared.action,
      request: cut(request.url),
      requestId: String(request.id),
      byOrganization,
    });
    return payload;
  });
}

