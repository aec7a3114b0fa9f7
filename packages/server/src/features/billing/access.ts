import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../infra/errors.js';
import type { Actor } from '../../infra/http/actor.js';
import { requireUser } from '../../infra/http/guards.js';
import { selectOrganizationRoleOf } from './billing.repository.js';

/** What `/billing/v1/*` answers while billing is off (docs/billing.md "Modes"). */
export const BILLING_OFF_MESSAGE = 'Billing is not enabled on this server';
/** A member without `resin.organization.access_billing` (spec 3 §6). */
export const NO_BILLING_ACCESS_MESSAGE = 'Only administrators of this organization can access its billing. Please contact an administrator.';

export const billingEnabled = (app: FastifyInstance): boolean => app.context.config.billing?.enabled === true;

/** 404 while billing is off. */
export function requireBillingOn(app: FastifyInstance): void {
  if (!billingEnabled(app)) throw new NotFoundError(BILLING_OFF_MESSAGE);
}

/**
 * Spec 3 §6: the billing endpoints need `resin.organization.access_billing`, which an
 * organization's administrators hold (docs/decisions.md), as do platform administrators.
 * Not a member (or no such organization): 404, so ids cannot be probed; a member without it:
 * 403 with what to do.
 */
export async function requireBillingAccess(app: FastifyInstance, request: FastifyRequest, orgId: number): Promise<Actor & { userId: number }> {
  requireBillingOn(app);
  const actor = requireUser(request);
  if (actor.claims?.twoFactorRequired === true) throw new UnauthorizedError('Two-factor authentication is required');
  if (actor.permissions.includes('admin.home')) {
    if ((await selectOrganizationRoleOf(app.context.db, orgId, null)) === undefined) throw new NotFoundError('Organization not found');
    return actor;
  }
  const role = await selectOrganizationRoleOf(app.context.db, orgId, actor.userId);
  if (role === undefined) throw new NotFoundError('Organization not found');
  if (role !== 'administrator') throw new ForbiddenError(NO_BILLING_ACCESS_MESSAGE);
  return actor;
}

/** Platform administrators only (`admin.home`): the catalogue editor, marking invoices paid. */
export function requirePlatformAdministrator(request: FastifyRequest): Actor & { userId: number } {
  const actor = requireUser(request);
  if (actor.claims?.twoFactorRequired === true) throw new UnauthorizedError('Two-factor authentication is required');
  if (!actor.permissions.includes('admin.home')) throw new ForbiddenError('Only platform administrators may do this');
  return actor;
}
