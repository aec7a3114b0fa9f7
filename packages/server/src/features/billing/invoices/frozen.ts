import { DEVICE_FROZEN_MESSAGE } from '@flotilla/model';
import type { FastifyInstance } from 'fastify';
import type { AppContext, Rules, RuleArgs } from '../../../infra/app/context.js';
import type { Db } from '../../../infra/db/db.js';
import { HttpError } from '../../../infra/errors.js';
import { DEVICE_STATE_CHANGED } from '../../device-api/index.js';
import { billingEnabled } from '../access.js';
import {
  selectAnyFrozenAmong,
  selectAnyOrganizationFrozen,
  selectDeviceIdsByUuid,
  selectFleetsOfOrganizations,
  selectFrozenDevices,
  selectIsDeviceActor,
  selectOrganizationsOfFleets,
  selectParentIds,
} from './frozen.repository.js';

/** Spec 3 §4: frozen messages say invoices are more than 60 days past due, and what to do. */
export const FROZEN_ORGANIZATION_MESSAGE =
  "This organization is frozen because its invoices are more than 60 days past due: its fleets and devices cannot be changed. An administrator of the organization can pay the past-due invoices on the organization's billing page to unfreeze it at once.";

/** 402: an action on a device frozen by the free allowance (the model's DEVICE_FROZEN_MESSAGE). */
export class DeviceFrozenError extends HttpError {
  constructor() {
    super(402, DEVICE_FROZEN_MESSAGE);
  }
}

/** 402 Payment Required: the refusal is about money owed, not about who asks. */
export class OrganizationFrozenError extends HttpError {
  constructor() {
    super(402, FROZEN_ORGANIZATION_MESSAGE);
  }
}

/**
 * What belongs to a fleet or a device, and how a row reaches its fleet: the resource's
 * foreign key to its parent. `application` (the fleet) belongs to its organization.
 */
const PARENT: Readonly<Record<string, { fk: string; parent: string }>> = {
  device: { fk: 'belongs_to__application', parent: 'application' },
  release: { fk: 'belongs_to__application', parent: 'application' },
  service: { fk: 'application', parent: 'application' },
  application_tag: { fk: 'application', parent: 'application' },
  application_environment_variable: { fk: 'application', parent: 'application' },
  application_config_variable: { fk: 'application', parent: 'application' },
  build_environment_variable: { fk: 'application', parent: 'application' },
  user_application_membership: { fk: 'is_member_of__application', parent: 'application' },
  team_application_access: { fk: 'grants_access_to__application', parent: 'application' },
  invitee__is_invited_to__application: { fk: 'is_invited_to__application', parent: 'application' },
  image: { fk: 'is_a_build_of__service', parent: 'service' },
  image__is_part_of__release: { fk: 'is_part_of__release', parent: 'release' },
  release_tag: { fk: 'release', parent: 'release' },
  release_asset: { fk: 'release', parent: 'release' },
  service_environment_variable: { fk: 'service', parent: 'service' },
  device_tag: { fk: 'device', parent: 'device' },
  device_environment_variable: { fk: 'device', parent: 'device' },
  device_config_variable: { fk: 'device', parent: 'device' },
  image_install: { fk: 'device', parent: 'device' },
  service_install: { fk: 'device', parent: 'device' },
  device_service_environment_variable: { fk: 'service_install', parent: 'service_install' },
  terminal_session: { fk: 'device', parent: 'device' },
};

/** Resources the frozen rule covers (the fleet and everything under it). */
export const FROZEN_RESOURCES: readonly string[] = ['application', ...Object.keys(PARENT)];

const ids = (values: readonly unknown[]) => [...new Set(values.filter((v): v is number => typeof v === 'number' && Number.isInteger(v)))];

/** The organizations owning `rowIds` of `resource` (walking up to the fleet). */
export async function organizationsOf(db: Db, resource: string, rowIds: readonly number[]): Promise<number[]> {
  let current = resource;
  let found = ids(rowIds);
  for (let depth = 0; depth < 5 && found.length > 0; depth++) {
    if (current === 'application') {
      return selectOrganizationsOfFleets(db, found);
    }
    const step = PARENT[current];
    if (!step) return [];
    found = ids(await selectParentIds(db, current, step.fk, found));
    current = step.parent;
  }
  return [];
}


/**
 * Refuses (402, FROZEN_ORGANIZATION_MESSAGE) when billing is on and a fleet, image or device
 * named here belongs to a frozen organization; a device frozen by the free allowance
 * (`device.is_frozen`) is refused too (402, DEVICE_FROZEN_MESSAGE). For the custom endpoints that act on fleets and
 * devices (device actions, registration, diagnostics, OS updates, provisioning and device keys,
 * registry pushes). Call it once the caller is known to see the target (so a stranger gets
 * the 404, not the 402 that tells a frozen organization's device exists).
 */
export async function assertNotFrozen(
  app: FastifyInstance,
  db: Db,
  target: { applications?: readonly number[]; devices?: readonly number[]; deviceUuids?: readonly string[]; images?: readonly number[] },
): Promise<void> {
  if (!billingEnabled(app)) return;
  // Devices: `device.is_frozen` (a frozen organization, or beyond the free allowance on the free plan).
  const byUuid = target.deviceUuids?.length ? await selectDeviceIdsByUuid(db, target.deviceUuids) : [];
  const devices = [...byUuid, ...(target.devices ?? [])];
  if (devices.length > 0) {
    const frozen = await selectFrozenDevices(db, devices);
    if (frozen.some((d) => d.organization_frozen)) throw new OrganizationFrozenError();
    if (frozen.length > 0) throw new DeviceFrozenError();
  }
  if (!target.applications?.length && !target.images?.length) return;
  if (!(await selectAnyOrganizationFrozen(db))) return;
  const orgs = [
    ...(target.applications?.length ? await organizationsOf(db, 'application', target.applications) : []),
    ...(target.images?.length ? await organizationsOf(db, 'image', target.images) : []),
  ];
  if (await selectAnyFrozenAmong(db, orgs)) throw new OrganizationFrozenError();
}

/**
 * Which of `devices` are frozen (`device.is_frozen`: a frozen organization, or beyond the free
 * allowance on the free plan); none while billing is off. For actions on many devices at once
 * (a fleet restart), which answer a frozen device's 402 in their list instead of asking it.
 */
export async function frozenDeviceIds(app: FastifyInstance, db: Db, devices: readonly number[]): Promise<ReadonlySet<number>> {
  if (!billingEnabled(app) || devices.length === 0) return new Set();
  return new Set((await selectFrozenDevices(db, devices)).map((d) => d.id));
}

/**
 * Issue 18 item 6: one rule on every write through the data API. When the rows written
 * (PATCH/DELETE: the rows concerned; POST and PATCH: also the fleet/device/… the body points
 * at) belong to a frozen organization, the write is refused. Not refused: the system's own
 * writes (no actor), and a device writing its own rows (state reports must not brick it).
 */
export function registerFrozenWriteRule(app: FastifyInstance, rules: Rules): void {
  rules.registerWriteGuard(async (args: RuleArgs) => {
    if (!billingEnabled(app)) return;
    const step = PARENT[args.resource];
    if (!step && args.resource !== 'application') return;
    const { tx } = args;
    if (!(await selectAnyOrganizationFrozen(tx))) return;
    const orgs = args.ids.length > 0 ? await organizationsOf(tx, args.resource, args.ids) : [];
    const body = args.body as Record<string, unknown>;
    if (args.resource === 'application') {
      if (typeof body.organization === 'number') orgs.push(body.organization);
    } else if (step && typeof body[step.fk] === 'number') {
      orgs.push(...(await organizationsOf(tx, step.parent, [body[step.fk] as number])));
    }
    if (!(await selectAnyFrozenAmong(tx, orgs))) return;
    if (args.actor.actorId === null) return;
    if (await selectIsDeviceActor(tx, args.actor.actorId)) return;
    throw new OrganizationFrozenError();
  });
}

/**
 * Which devices are frozen (`device.is_frozen`) may have changed for these organizations (frozen
 * or unfrozen, a plan change, devices removed on the free plan): a frozen device is held on its
 * release in its target state, so every process's target-state cache drops their fleets once
 * `db`'s write has committed.
 */
export async function announceFrozenDevicesChanged(ctx: AppContext, db: Db, organizations: readonly number[]): Promise<void> {
  if (ctx.config.billing?.enabled !== true || organizations.length === 0) return;
  const applicationIds = await selectFleetsOfOrganizations(db, organizations);
  if (applicationIds.length === 0) return;
  db.afterCommit(async () => {
    await ctx.bus.publish(DEVICE_STATE_CHANGED, { applicationIds });
  });
}
