import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { setupStaffAudit } from './staff-audit.js';
import { setupAuditLog } from './audit-log.js';
import { auditLogRoutes } from './audit-log.routes.js';

/**
 * The organization's audit log, read at /v7/audit_event and exported at /audit/v1: staff
 * reads (issue 19 item 2), every write through the data API and every custom action (issue 21
 * item 5), hash-chained per organization (docs/audit-log.md).
 */
export async function setup(app: FastifyInstance, rules: Rules): Promise<void> {
  setupStaffAudit(app, rules);
  setupAuditLog(app, rules);
  auditLogRoutes(app);
}
