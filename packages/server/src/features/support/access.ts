import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SUPPORT_MESSAGES, supportRefusal, supportRefusalMessage, type SupportRefusal } from '@flotilla/model';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../infra/errors.js';
import type { Actor } from '../../infra/http/actor.js';
import { requireUser } from '../../infra/http/guards.js';
import { billingEnabled, planLimitsOf } from '../billing/index.js';
import { selectMembership, selectRequester, type OrganizationRow, type RequesterRow } from './support.repository.js';

export type SignedIn = Actor & { userId: number };

/** A signed-in user past two-factor. */
export function requireSignedIn(request: FastifyRequest): SignedIn {
  const actor = requireUser(request);
  if (actor.claims?.twoFactorRequired === true) throw new UnauthorizedError('Two-factor authentication is required');
  return actor;
}

/**
 * The caller must be a member of `orgId`; anyone else (another organization's user, an id
 * that does not exist) gets 404, as on the neighbouring organization routes.
 */
export async function requireMember(app: FastifyInstance, request: FastifyRequest, orgId: number): Promise<{ actor: SignedIn; organization: OrganizationRow; requester: RequesterRow }> {
  const actor = requireSignedIn(request);
  const organization = await selectMembership(app.context.db, orgId, actor.userId);
  const requester = organization ? await selectRequester(app.context.db, actor.userId) : undefined;
  if (!organization || !requester) throw new NotFoundError('Organization not found');
  return { actor, organization, requester };
}

/** Spec 3 §1/§5 (docs/support.md): why this member may not open a private ticket, or null. */
export async function refusalOf(app: FastifyInstance, orgId: number, requester: RequesterRow): Promise<SupportRefusal | null> {
  const on = billingEnabled(app);
  return supportRefusal(on, on ? await planLimitsOf(app.context.db, true, orgId) : null, requester.is_verified);
}

/** 403 with what to do when the member may not open a private ticket. */
export async function requirePrivateSupport(app: FastifyInstance, orgId: number, requester: RequesterRow): Promise<void> {
  const refusal = await refusalOf(app, orgId, requester);
  if (refusal) throw new ForbiddenError(supportRefusalMessage(refusal));
}

/** Support agents and platform administrators (`support.home`). */
export function requireStaff(request: FastifyRequest): SignedIn {
  const actor = requireSignedIn(request);
  if (!actor.permissions.includes('support.home')) throw new ForbiddenError(SUPPORT_MESSAGES.staffOnly);
  return actor;
}

/** Platform administrators (`admin.home`): they change the ticket fields. */
export function requireFieldEditor(request: FastifyRequest): SignedIn {
  const actor = requireStaff(request);
  if (!actor.permissions.includes('admin.home')) throw new ForbiddenError(SUPPORT_MESSAGES.administratorsOnly);
  return actor;
}
