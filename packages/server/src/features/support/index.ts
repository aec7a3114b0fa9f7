import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { supportAdminRoutes } from './admin.routes.js';
import { Helpdesk } from './helpdesk.js';
import { zendeskRoutes } from './zendesk.routes.js';

/**
 * The built-in helpdesk (issue 19 item 1, spec 3 §2 Support; docs/support.md): ticket fields
 * configured by platform staff, tickets filed through the spec's `/zendesk/v1/{org}/…` calls
 * and stored, mailed to FLOTILLA_SUPPORT_EMAIL and answered by support agents in /admin, and
 * the optional Zendesk bridge. Set up after the file store (attachments live there).
 */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  const helpdesk = new Helpdesk(app, app.files);
  await app.register(zendeskRoutes, { helpdesk });
  await app.register(supportAdminRoutes, { helpdesk });
}
