import { deactivationProblem, deviceAllowanceProblem, fleetRoleProblem, FREE_PLAN_CODE, invitationRoleProblem, isFreePlan } from '@flotilla/model';
import type { Rules } from '../../../infra/app/context.js';
import type { Db } from '../../../infra/db/db.js';
import { BadRequestError } from '../../../infra/errors.js';
import {
  countDevices,
  countDevicesOutside,
  fleetRoleName,
  insertSubscription,
  lockOrganization,
  organizationOfFleet,
  organizationsOfDevices,
  organizationsOfFleetGrants,
  selectPlanByCode,
} from './plans.repository.js';
import { planLimitsOf } from './subscriptions.js';
import { announceFrozenDevicesChanged } from '../invoices/frozen.js';

/**
 * Issue 18 item 2: the limits of the organization's plan, enforced on every write path of the
 * data API (and device registration). Registered only while billing is on: billing off limits
 * nothing.
 */

/** Refuses the `operator` fleet role in an organization whose plan has no operator seats. */
async function checkFleetRole(tx: Db, orgId: number | undefined, roleId: unknown): Promise<void> {
  if (orgId === undefined || typeof roleId !== 'number') return;
  const role = await fleetRoleName(tx, roleId);
  const problem = fleetRoleProblem(await planLimitsOf(tx, true, orgId), role);
  if (problem) throw new BadRequestError(problem);
}

/**
 * Accepting a fleet invitation grants its role now: an operator invitation is refused (400,
 * the invitee is told to ask an administrator) once fleet `fleetId`'s organization has no
 * operator seats. For features/invitations (billing on only: see `invitationRoleCheck`).
 */
export async function checkInvitationRole(tx: Db, fleetId: number, roleId: number): Promise<void> {
  const orgId = await organizationOfFleet(tx, fleetId);
  if (orgId === undefined) return;
  const problem = invitationRoleProblem(await planLimitsOf(tx, true, orgId), await fleetRoleName(tx, roleId));
  if (problem) throw new BadRequestError(problem);
}

/**
 * Spec 3 §8 "Free plan allowance reached": a device added to an organization on the free plan
 * beyond the allowance is refused. The organization row is locked so two registrations at once
 * cannot both take the last place.
 */
export async function checkDeviceAllowance(tx: Db, fleetId: number, adding = 1): Promise<void> {
  const orgId = await organizationOfFleet(tx, fleetId);
  if (orgId === undefined) return;
  const limits = await planLimitsOf(tx, true, orgId);
  if (!isFreePlan(limits)) return;
  if (!(await lockOrganization(tx, orgId))) return;
  const problem = deviceAllowanceProblem(limits, await countDevices(tx, orgId), adding);
  if (problem) throw new BadRequestError(problem);
}

export function registerLimitRules(rules: Rules): void {
  // Every new organization starts on the free plan.
  rules.register('organization', 'POST', {
    after: async ({ tx, ids, app }) => {
      const free = await selectPlanByCode(tx, FREE_PLAN_CODE);
      if (!free) throw new Error(`the billing catalogue has no '${FREE_PLAN_CODE}' plan`);
      await insertSubscription(tx, { organization: ids[0]!, plan: free.id, cycle: 'monthly', origin: 'signup', now: new Date(app.clock()) }, true);
    },
  });

  rules.register('user_application_membership', 'POST', {
    before: async ({ tx, body }) => {
      if (typeof body.is_member_of__application !== 'number') return;
      await checkFleetRole(tx, await organizationOfFleet(tx, body.is_member_of__application), body.application_membership_role);
    },
  });
  rules.register('user_application_membership', 'PATCH', {
    before: async ({ tx, body, ids }) => {
      for (const org of await organizationsOfFleetGrants(tx, 'user_application_membership', ids)) await checkFleetRole(tx, org, body.application_membership_role);
    },
  });
  rules.register('team_application_access', 'POST', {
    before: async ({ tx, body }) => {
      if (typeof body.grants_access_to__application !== 'number') return;
      await checkFleetRole(tx, await organizationOfFleet(tx, body.grants_access_to__application), body.application_membership_role);
    },
  });
  rules.register('team_application_access', 'PATCH', {
    before: async ({ tx, body, ids }) => {
      for (const org of await organizationsOfFleetGrants(tx, 'team_application_access', ids)) await checkFleetRole(tx, org, body.application_membership_role);
    },
  });
  rules.register('invitee__is_invited_to__application', 'POST', {
    before: async ({ tx, body }) => {
      if (typeof body.is_invited_to__application !== 'number') return;
      await checkFleetRole(tx, await organizationOfFleet(tx, body.is_invited_to__application), body.application_membership_role);
    },
  });

  rules.register('device', 'POST', {
    before: async ({ tx, body }) => {
      if (typeof body.belongs_to__application === 'number') await checkDeviceAllowance(tx, body.belongs_to__application);
    },
  });
  // On the free plan, which devices are beyond the allowance (frozen) follows the organization's
  // device count: removing or moving devices may unfreeze others.
  rules.register('device', 'DELETE', {
    before: async ({ tx, ids, app }) => {
      if (ids.length === 0) return;
      const free: number[] = [];
      for (const org of await organizationsOfDevices(tx, ids)) if (isFreePlan(await planLimitsOf(tx, true, org))) free.push(org);
      await announceFrozenDevicesChanged(app, tx, free);
    },
  });
  rules.register('device', 'PATCH', {
    before: async ({ tx, body, ids, app }) => {
      if (typeof body.belongs_to__application === 'number' && ids.length > 0) {
        const free: number[] = [];
        for (const org of await organizationsOfDevices(tx, ids)) if (isFreePlan(await planLimitsOf(tx, true, org))) free.push(org);
        await announceFrozenDevicesChanged(app, tx, free);
      }
      // A device moved into a fleet of another organization counts against that one's allowance.
      if (typeof body.belongs_to__application === 'number' && ids.length > 0) {
        const target = await organizationOfFleet(tx, body.belongs_to__application);
        const arriving = target === undefined ? 0 : await countDevicesOutside(tx, ids, target);
        if (arriving > 0) await checkDeviceAllowance(tx, body.belongs_to__application, arriving);
      }
      if (body.is_active !== false || ids.length === 0) return;
      for (const org of await organizationsOfDevices(tx, ids)) {
        const problem = deactivationProblem(await planLimitsOf(tx, true, org));
        if (problem) throw new BadRequestError(problem);
      }
    },
  });
}
