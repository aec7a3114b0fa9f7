import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { setupStaffAudit } from './staff-audit.js';

/** The organization's audit trail of staff reads (issue 19 item 2), read at /v7/audit_event. */
export async function setup(app: FastifyInstance, rules: Rules): Promise<void> {
  setupStaffAudit(app, rules);
}
