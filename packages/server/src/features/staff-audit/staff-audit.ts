import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AUDIT_REQUEST_MAX_LENGTH, AUDIT_STAFF_ROLES, hasPermission, type AuditStaffRole } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import type { Actor } from '../../infra/http/actor.js';
import { odataReadIds, odataResourceOf, type DataContext } from '../../infra/odata/index.js';
import type { Rules } from '../../infra/app/context.js';
import { organizationPaths } from './organization-paths.js';
import { deviceIdByUuid, platformRoleOf, recordStaffRead } from './staff-audit.repository.js';

/**
 * Issue 19 item 2: every read of customer data by provider staff is recorded in the
 * organization's audit trail (`audit_event`, kind `staff_read`): a support agent or a
 * platform administrator acting as themselves, or an administrator logged in as a user (the
 * token's actualUser). One row per request per organization read, written before the answer
 * is sent; the staff member's own organizations are left out (there they read as a member).
 */

interface Staff {
  performedAs: number;
  performedBy: number;
  staffRole: AuditStaffRole | null;
}

const asStaffRole = (role: string | null): AuditStaffRole | null =>
  (AUDIT_STAFF_ROLES as readonly string[]).includes(role ?? '') ? (role as AuditStaffRole) : null;

/** The staff member behind a request, or undefined for everybody else. */
export async function staffOf(db: Db, actor: Actor | null): Promise<Staff | undefined> {
  if (!actor || actor.kind !== 'user' || actor.userId === undefined) return undefined;
  const actual = actor.claims?.actualUser;
  if (actual !== undefined && actual !== actor.userId) {
    return { performedAs: actor.userId, performedBy: actual, staffRole: asStaffRole(await platformRoleOf(db, actual)) };
  }
  if (hasPermission(actor.permissions, 'admin.home')) return { performedAs: actor.userId, performedBy: actor.userId, staffRole: 'administrator' };
  if (hasPermission(actor.permissions, 'support.home')) return { performedAs: actor.userId, performedBy: actor.userId, staffRole: 'support_agent' };
  return undefined;
}

const cut = (text: string) => (text.length > AUDIT_REQUEST_MAX_LENGTH ? text.slice(0, AUDIT_REQUEST_MAX_LENGTH) : text);

export function setupStaffAudit(app: FastifyInstance, rules: Rules): void {
  const paths = organizationPaths();
  const pool = app.context.db;

  // The data API: the rows the GET read at its top level (expanded rows hang off them).
  rules.registerReadObserver(async ({ request, db, ctx, url, prefix }: { request: FastifyRequest; db: Db; ctx: DataContext; url: string; prefix: string }) => {
    const staff = await staffOf(db, request.actor);
    if (!staff) return;
    const resource = odataResourceOf(url);
    const path = paths.get(resource);
    if (!path) return;
    const ids = await odataReadIds(db, ctx, url);
    await recordStaffRead(pool, resource, path, ids, {
      ...staff,
      method: request.method,
      route: `${prefix}/${resource}`,
      resource,
      request: cut(`${prefix}${url}`),
      requestId: String(request.id),
    });
  });

  // Custom routes about one device (`/device/v2/:uuid/logs`, diagnostics, effective
  // variables…): a successful answer to staff is a read of that device's organization.
  const devicePath = paths.get('device')!;
  app.addHook('onSend', async (request, reply, payload) => {
    const params = request.params as Record<string, unknown> | undefined;
    const uuid = params?.uuid;
    if (typeof uuid !== 'string' || reply.statusCode >= 400 || request.url.startsWith('/v7/') || request.url.startsWith('/v6/')) return payload;
    const staff = await staffOf(pool, request.actor);
    if (!staff) return payload;
    const device = await deviceIdByUuid(pool, uuid);
    if (device === undefined) return payload;
    await recordStaffRead(pool, 'device', devicePath, [device], {
      ...staff,
      method: request.method,
      route: request.routeOptions.url ?? request.url.split('?')[0]!,
      resource: 'device',
      request: cut(request.url),
      requestId: String(request.id),
    });
    return payload;
  });
}
