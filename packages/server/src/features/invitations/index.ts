import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { invitationRoleCheck } from '../billing/index.js';
import { registerInvitationRules } from './invitation.hooks.js';
import { invitationRoutes } from './invitation.routes.js';

/** Invitations: the invite rules (mailed through the app's mailer) and accepting by token. */
export async function setup(app: FastifyInstance, rules: Rules): Promise<void> {
  registerInvitationRules(rules);
  await app.register(invitationRoutes, { db: app.context.db, checkFleetRole: invitationRoleCheck(app) });
}
