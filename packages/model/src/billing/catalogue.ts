import type { BillingCycle } from './billing.resource.js';
import { FREE_PLAN_CODE } from '../identity/account-deletion.js';
import { SEAT_ROLES, type SeatRole } from '../roles/fleet.js';

/**
 * Spec 3 §3, §6, §9: the billing catalogue as data. The operator's plans file
 * (`FLOTILLA_PLANS_FILE`, JSON of this shape) replaces `DEFAULT_CATALOGUE`; the server seeds
 * the `feature`, `plan`, `plan_feature` and `plan_addon` rows from it, and platform
 * administrators edit them. Every price is in cents; a per-unit price is per month.
 */

/** Seat roles (roles/fleet.ts SEAT_ROLES, lowest first): `member` is the organization-only seat. */

/**
 * Device classes for billing (spec 3 §9 labels). A fleet's devices are of the class its
 * application type bills as: legacy application types as `legacy-v1`, the others as
 * `microservices-v1`; `legacy-v2` ("Classic device") is priced like legacy.
 */
export const DEVICE_CLASSES = ['legacy-v1', 'legacy-v2', 'microservices-v1'] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];
export const DEVICE_CLASS_LABELS: Record<DeviceClass, string> = {
  'legacy-v1': 'Legacy device',
  'legacy-v2': 'Classic device',
  'microservices-v1': 'Microservices device',
};
export const SEAT_ROLE_LABELS: Record<SeatRole, string> = {
  administrator: 'Organization administrator',
  developer: 'Developer',
  operator: 'Operator',
  observer: 'Observer',
  member: 'Organization member',
};

/** Usage and add-on feature slugs: `device:<class>`, `member:<seat role>`. */
export const deviceFeature = (c: DeviceClass) => `device:${c}` as const;
export const seatFeature = (r: SeatRole) => `member:${r}` as const;

/** Capability features a plan may include (quantity 1). */
export const CAPABILITIES = {
  /** Private support tickets (spec 3 §1: a paid plan and a verified email). */
  privateSupport: 'support:private',
  /** SAML single sign-on. */
  saml: 'saml',
  /** Deactivating devices (spec 3 §9 deactivation fee; paid plans only). */
  deactivation: 'deactivation',
  /** Prepaid device credits (spec 3 §4: pilot-v2, production-v2, enterprise-v2). */
  credits: 'credits:device',
  /** The operator seat role (spec 3 §6: operator is paid only). */
  operatorSeats: 'member:operator',
} as const;

/** The first 10 devices are free (spec 3 §9). */
export const FREE_DEVICE_ALLOWANCE = 10;
/** 4 or more devices on the free plan raise the warning flag (spec 3 §4). */
export const FREE_PLAN_WARNING_DEVICES = 4;

export interface CatalogueFeature {
  slug: string;
  title: string;
  billingCode?: string;
}

export interface CataloguePlan {
  /** billing_code: a tier code with an optional -vN suffix. */
  code: string;
  title: string;
  description?: string;
  monthlyPrice: number;
  annualPrice: number;
  canSelfServe: boolean;
  isLegacy?: boolean;
  validFrom?: string | null;
  validUntil?: string | null;
  supportTier: string;
  /** Included quantities by feature slug (devices, capabilities). */
  includes: Record<string, number>;
  /** Per-unit monthly prices by feature slug (seats by role, devices by class). */
  addons: Record<string, number>;
}

export interface Catalogue {
  features: CatalogueFeature[];
  /** In tier order (upgrade/downgrade is by position here, spec 3 §4). */
  plans: CataloguePlan[];
  /** The operator's legal details printed on invoices and the service agreement link. */
  seller?: { name: string; address: string[]; email?: string; vatNumber?: string; agreementUrl?: string };
}

const seatAddons = (operator: number, developer: number, administrator: number) => ({
  [seatFeature('observer')]: 0,
  [seatFeature('member')]: 0,
  [seatFeature('operator')]: operator,
  [seatFeature('developer')]: developer,
  [seatFeature('administrator')]: administrator,
});
const deviceAddons = (legacy: number, microservices: number) => ({
  [deviceFeature('legacy-v1')]: legacy,
  [deviceFeature('legacy-v2')]: legacy,
  [deviceFeature('microservices-v1')]: microservices,
});
/**
 * The price of one prepaid device credit (cents) on the plans that sell credits: two device
 * months of a microservices device (spec 3 §5 runway: a credit covers two device months).
 */
const creditAddon = (microservicesDevice: number) => ({ [CAPABILITIES.credits]: 2 * microservicesDevice });
const paidCapabilities = { [CAPABILITIES.privateSupport]: 1, [CAPABILITIES.deactivation]: 1, [CAPABILITIES.operatorSeats]: 1 };

/**
 * The catalogue a server uses without `FLOTILLA_PLANS_FILE` (when billing is on): the spec's
 * tier codes, seat prices (observer free, operator $29, developer and administrator $49) and
 * per-device prices (prototype 200/300, pilot and production 150/200, legacy/microservices).
 * Tier base prices are Flotilla's defaults; an operator's file replaces them.
 */
export const DEFAULT_CATALOGUE: Catalogue = {
  features: [
    ...DEVICE_CLASSES.map((c) => ({ slug: deviceFeature(c), title: DEVICE_CLASS_LABELS[c], billingCode: c })),
    ...SEAT_ROLES.map((r) => ({ slug: seatFeature(r), title: SEAT_ROLE_LABELS[r], billingCode: `member-${r}` })),
    { slug: CAPABILITIES.privateSupport, title: 'Private support' },
    { slug: CAPABILITIES.saml, title: 'SAML single sign-on' },
    { slug: CAPABILITIES.deactivation, title: 'Device deactivation' },
    { slug: CAPABILITIES.credits, title: 'Device credits', billingCode: 'credits' },
  ],
  plans: [
    {
      code: FREE_PLAN_CODE,
      title: 'Free',
      monthlyPrice: 0,
      annualPrice: 0,
      canSelfServe: true,
      supportTier: 'community',
      includes: { [deviceFeature('microservices-v1')]: FREE_DEVICE_ALLOWANCE },
      addons: { ...seatAddons(2900, 4900, 4900), ...deviceAddons(0, 0) },
    },
    {
      code: 'prototype-v2',
      title: 'Prototype',
      monthlyPrice: 9900,
      annualPrice: 99000,
      canSelfServe: true,
      supportTier: 'standard',
      includes: { [deviceFeature('microservices-v1')]: 25, ...paidCapabilities },
      addons: { ...seatAddons(2900, 4900, 4900), ...deviceAddons(200, 300) },
    },
    {
      code: 'pilot-v2',
      title: 'Pilot',
      monthlyPrice: 29900,
      annualPrice: 299000,
      canSelfServe: true,
      supportTier: 'standard',
      includes: { [deviceFeature('microservices-v1')]: 100, ...paidCapabilities, [CAPABILITIES.credits]: 1 },
      addons: { ...seatAddons(2900, 4900, 4900), ...deviceAddons(150, 200), ...creditAddon(200) },
    },
    {
      code: 'production-v2',
      title: 'Production',
      monthlyPrice: 89900,
      annualPrice: 899000,
      canSelfServe: true,
      supportTier: 'premium',
      includes: { [deviceFeature('microservices-v1')]: 500, ...paidCapabilities, [CAPABILITIES.credits]: 1 },
      addons: { ...seatAddons(2900, 4900, 4900), ...deviceAddons(150, 200), ...creditAddon(200) },
    },
    {
      code: 'enterprise-v2',
      title: 'Enterprise',
      monthlyPrice: 0,
      annualPrice: 0,
      canSelfServe: false,
      supportTier: 'premium-sla',
      includes: { [deviceFeature('microservices-v1')]: 1000, ...paidCapabilities, [CAPABILITIES.credits]: 1, [CAPABILITIES.saml]: 1 },
      addons: { ...seatAddons(2900, 4900, 4900), ...deviceAddons(150, 200), ...creditAddon(200) },
    },
  ],
};

/** Seats that never cost anything (spec 3 §6: observers are unlimited; `member` is the organization-only seat). */
export const FREE_SEAT_ROLES: readonly SeatRole[] = ['observer', 'member'];

/**
 * How many units of a usage resource a plan includes: for devices, the plan's `plan_feature`
 * quantity (10 on free); for seats, every observer and member seat (free, unlimited), one
 * administrator (every organization needs one, so its first administrator is never billed)
 * and no other seat (`member:operator` among a plan's features is the capability to have
 * operators, not a free seat). One rule for the plan's charges, the usage ledger's overage
 * and the dashboard.
 */
export function includedQuantity(resource: string, includes: Readonly<Record<string, number>>): number {
  if (resource.startsWith('device:')) return includes[resource] ?? 0;
  if ((FREE_SEAT_ROLES as readonly string[]).some((r) => resource === seatFeature(r as SeatRole))) return Number.POSITIVE_INFINITY;
  if (resource === seatFeature('administrator')) return 1;
  return 0;
}

/** Spec 3 §9: annual price / 12 is the monthly cost. */
export function monthlyCost(plan: Pick<CataloguePlan, 'monthlyPrice' | 'annualPrice'>, cycle: BillingCycle): number {
  return cycle === 'annual' ? Math.round(plan.annualPrice / 12) : plan.monthlyPrice;
}

/** The tier of a billing code: `pilot-v2` → `pilot` (spec 3 §3 optional -vN suffix). */
export function tierOf(code: string): string {
  return code.replace(/-v\d+$/, '');
}

/** Whether a plan is paid (anything but the free tier). */
export function isPaidPlan(code: string): boolean {
  return tierOf(code) !== FREE_PLAN_CODE;
}

/**
 * Spec 3 §5: a self-serve plan is not legacy, has a price above 0 (the free plan, priced 0,
 * is self-serve by definition) and is within its valid dates.
 */
export function isSelfServe(plan: Pick<CataloguePlan, 'code' | 'canSelfServe' | 'isLegacy' | 'monthlyPrice' | 'annualPrice' | 'validFrom' | 'validUntil'>, now: Date): boolean {
  if (!plan.canSelfServe || plan.isLegacy) return false;
  if (tierOf(plan.code) !== FREE_PLAN_CODE && plan.monthlyPrice <= 0 && plan.annualPrice <= 0) return false;
  if (plan.validFrom && new Date(plan.validFrom) > now) return false;
  if (plan.validUntil && new Date(plan.validUntil) <= now) return false;
  return true;
}

/** Formats cents as dollars with 2 decimals (spec 3 §9): 2900 → `$29.00`. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  return `${sign}$${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
}
