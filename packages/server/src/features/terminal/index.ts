import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { terminalRoutes } from './terminal.routes.js';

/** The browser web terminal (issue 15 item 2): WebSocket at TERMINAL_PATH, relayed over the cloud link; its audit trail. */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  const { db, mailer, authenticator } = app.context;
  await app.register(terminalRoutes, { db, authenticator, publicUrl: mailer.publicUrl });
}
