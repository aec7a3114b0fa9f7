import { FREE_DEVICE_ALLOWANCE } from './catalogue.js';
import { FREE_PLAN_CODE } from '../identity/account-deletion.js';

/**
 * Frozen devices (spec 3 §4 "Free allowance and frozen devices", balena's `device.is_frozen`):
 * a device is frozen when its organization is frozen (invoices more than 60 days past due), or
 * when its organization is on the free plan and the device is beyond the free allowance: the
 * organization's devices oldest first (created_at, then id), the first FREE_DEVICE_ALLOWANCE
 * are free and the others frozen. A frozen device keeps running what it runs but gets no new
 * release (docs/decisions.md, issue 18).
 */
export interface DeviceFrozenFacts {
  organizationFrozen: boolean;
  /** The organization's plan code (null: no subscription, billing off). */
  planCode: string | null;
  /** How many of the organization's active devices are older than this one (a deactivated device is not counted). */
  olderDevices: number;
}

const isFreeCode = (code: string) => code.replace(/-v\d+$/, '') === FREE_PLAN_CODE;

export type DeviceFrozenReason = 'organization' | 'free-allowance';

/**
 * The refusal of an action on a device frozen by the free allowance (402; a frozen
 * organization's devices get FROZEN_ORGANIZATION_MESSAGE): the spec 3 §8 frozen-devices dialog's words.
 */
export const DEVICE_FROZEN_MESSAGE = `This device is frozen: the free plan includes ${FREE_DEVICE_ALLOWANCE} devices and this organization has more. It keeps running its release but gets no updates or actions. Reduce the number of devices below the free allowance, or upgrade to a paid plan.`;

/** Why a device that the API says `is_frozen` is frozen (its organization's `is_frozen` decides). */
export function frozenReasonOf(device: { is_frozen: boolean | null }, organizationFrozen: boolean): DeviceFrozenReason | null {
  if (device.is_frozen !== true) return null;
  return organizationFrozen ? 'organization' : 'free-allowance';
}

/** Why a device is frozen, or null when it is not (the rule `device.is_frozen` computes in SQL). */
export function deviceFrozenReason(facts: DeviceFrozenFacts): DeviceFrozenReason | null {
  if (facts.organizationFrozen) return 'organization';
  if (facts.planCode !== null && isFreeCode(facts.planCode) && facts.olderDevices >= FREE_DEVICE_ALLOWANCE) return 'free-allowance';
  return null;
}

/**
 * The same rule as SQL over a device row `{row}` (the model's computed field `device.is_frozen`):
 * the plan is the organization's active subscription's; a billing code is free when its tier
 * (the code without `-vN`) is FREE_PLAN_CODE.
 */
export const DEVICE_IS_FROZEN_SQL = `coalesce((SELECT CASE
    WHEN "__o"."is_frozen" THEN true
    WHEN NOT EXISTS (SELECT 1 FROM "subscription" AS "__s" JOIN "plan" AS "__p" ON "__p"."id" = "__s"."is_for__plan"
                      WHERE "__s"."is_for__organization" = "__o"."id" AND "__s"."is_active"
                        AND regexp_replace("__p"."billing_code", '-v[0-9]+$', '') = '${FREE_PLAN_CODE}') THEN false
    ELSE (SELECT count(*) FROM "device" AS "__d" JOIN "application" AS "__a2" ON "__a2"."id" = "__d"."belongs_to__application"
           WHERE "__a2"."organization" = "__o"."id" AND "__d"."is_active"
             AND ("__d"."created_at", "__d"."id") < ({row}."created_at", {row}."id")) >= ${FREE_DEVICE_ALLOWANCE}
  END
  FROM "application" AS "__a" JOIN "organization" AS "__o" ON "__o"."id" = "__a"."organization"
  WHERE "__a"."id" = {row}."belongs_to__application"), false)`;
