import { deviceTypeOptionState, type DeviceTypeOptionState } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule (spec 2 §5 Fleets, device-type option states): a fleet is created for, or has its
 * default changed to, only a device type whose option state is ok — not a discontinued or
 * upcoming type, not a paid-only type on a free plan, and not a single-container type for a
 * multi-container application type. The dashboard disables those options; the server refuses
 * them for every client. Fleets whose type became discontinued later keep it (the shell warns).
 */
const MESSAGES: Record<Exclude<DeviceTypeOptionState, 'ok'>, (name: string) => string> = {
  noVersionDiscontinued: (name) => `The device type ${name} is discontinued: it is unavailable for new fleets. Choose another device type.`,
  noVersionUpcoming: (name) => `The device type ${name} is coming soon: it has no OS release yet. Choose another device type.`,
  needsPlanUpgrade: () => 'This type is only available to paying customers',
  needsMulticontainerSupport: (name) =>
    `The device type ${name} is unavailable: it does not support multiple containers, and this fleet's type needs them.`,
};

function idOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null && '__id' in value ? (value as { __id: unknown }).__id : value;
}

async function check(db: Db, deviceTypeId: unknown, needsMulticontainer: boolean): Promise<void> {
  if (typeof deviceTypeId !== 'number') return; // missing or malformed: the type checks answer
  const { rows } = await db.query<{ name: string; contract: unknown }>('SELECT name, contract FROM device_type WHERE id = $1', [deviceTypeId]);
  const type = rows[0];
  if (!type) return; // the foreign-key check answers
  // No organization has a billing plan yet: plans limit nothing (docs/decisions.md, issue 3).
  const state = deviceTypeOptionState(type.contract, { plan: undefined, needsMulticontainer });
  if (state !== 'ok') throw new BadRequestError(MESSAGES[state](type.name));
}

async function applicationTypeIsMulticontainer(db: Db, applicationTypeId: unknown): Promise<boolean> {
  if (typeof applicationTypeId !== 'number') return true;
  const { rows } = await db.query<{ supports_multicontainer: boolean }>('SELECT supports_multicontainer FROM application_type WHERE id = $1', [
    applicationTypeId,
  ]);
  return rows[0]?.supports_multicontainer ?? true;
}

/** POST /application: after prepareApplication (which fills in the default application type). */
export async function checkNewFleetDeviceType(db: Db, body: HookBody<'application', 'POST'>): Promise<void> {
  await check(db, idOf(body.is_for__device_type), await applicationTypeIsMulticontainer(db, idOf(body.application_type)));
}

/** PATCH /application changing the default device type (alone or with the application type). */
export async function checkDefaultDeviceTypeAvailable(db: Db, body: HookBody<'application', 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0 || !('is_for__device_type' in body)) return;
  let multicontainer: boolean;
  if ('application_type' in body) {
    multicontainer = await applicationTypeIsMulticontainer(db, idOf(body.application_type));
  } else {
    const { rows } = await db.query<{ any: boolean }>(
      `SELECT coalesce(bool_or(t.supports_multicontainer), false) AS any
         FROM application a JOIN application_type t ON t.id = a.application_type WHERE a.id = ANY($1::int[])`,
      [ids],
    );
    multicontainer = rows[0]?.any ?? true;
  }
  await check(db, idOf(body.is_for__device_type), multicontainer);
}
