import type { ResourceDef } from '../types.js';

/**
 * Spec 3 §3: the billing catalogue (features, plans, what a plan includes and what it sells
 * per unit) and each organization's subscription, in balena's v7 shape so balena-sdk and the
 * dashboard read them with pine. Catalogue rows are written by the server only (seeded from the
 * operator's plans file, edited by platform administrators); subscriptions by the billing
 * service (plan change, cancel). See docs/billing.md.
 */

export const feature = {
  name: 'feature',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'title', type: 'Short Text', required: true, writable: 'never' },
    // e.g. `device:microservices-v1`, `member:developer`, `credits:device`, `saml`, `support:private`.
    { name: 'slug', type: 'Short Text', required: true, writable: 'never' },
    { name: 'billing_code', type: 'Short Text', writable: 'never' },
  ],
  alternateKeys: [['slug']],
  unique: [['slug']],
} as const satisfies ResourceDef;

export const plan = {
  name: 'plan',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'title', type: 'Short Text', required: true, writable: 'never' },
    // The tier code with an optional -vN suffix (spec 3 §3): free, prototype-v2, pilot-v2, …
    { name: 'billing_code', type: 'Short Text', required: true, writable: 'never' },
    // Prices in cents.
    { name: 'monthly_price', type: 'Integer', required: true, default: '0', writable: 'never' },
    { name: 'annual_price', type: 'Integer', required: true, default: '0', writable: 'never' },
    { name: 'can_self_serve', type: 'Boolean', required: true, default: 'false', writable: 'never' },
    { name: 'is_legacy', type: 'Boolean', required: true, default: 'false', writable: 'never' },
    { name: 'is_valid_from__date', type: 'Date Time', writable: 'never' },
    { name: 'is_valid_until__date', type: 'Date Time', writable: 'never' },
    // Flotilla: the support tier's name (spec 3 §3 support tier: community, standard, premium…),
    // the position among tiers (upgrade/downgrade order, spec 3 §4) and the tier's description.
    { name: 'support_tier', type: 'Short Text', required: true, default: "'community'", writable: 'never' },
    { name: 'position', type: 'Integer', required: true, default: '0', writable: 'never' },
    { name: 'description', type: 'Text', writable: 'never' },
  ],
  reverse: [
    { name: 'plan_feature', resource: 'plan_feature', via: 'plan' },
    { name: 'plan_addon', resource: 'plan_addon', via: 'plan' },
    { name: 'subscription', resource: 'subscription', via: 'is_for__plan' },
  ],
  alternateKeys: [['billing_code']],
  unique: [['billing_code']],
} as const satisfies ResourceDef;

/** What a plan includes: `quantity` units of a feature (10 devices, 1 = a capability). */
export const plan_feature = {
  name: 'plan_feature',
  synonyms: ['plan__provides__feature'],
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'plan', type: 'ForeignKey', references: 'plan', required: true, writable: 'never', onDelete: 'cascade' },
    { name: 'feature', type: 'ForeignKey', references: 'feature', required: true, writable: 'never', onDelete: 'cascade' },
    { name: 'quantity', type: 'Integer', required: true, default: '1', writable: 'never' },
  ],
  unique: [['plan', 'feature']],
} as const satisfies ResourceDef;

/** What a plan sells per unit beyond what it includes: a seat of a role, a device of a class. */
export const plan_addon = {
  name: 'plan_addon',
  synonyms: ['plan__offers__feature'],
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'plan', type: 'ForeignKey', references: 'plan', required: true, writable: 'never', onDelete: 'cascade' },
    { name: 'feature', type: 'ForeignKey', references: 'feature', required: true, writable: 'never', onDelete: 'cascade' },
    // Cents per unit per month.
    { name: 'base_price', type: 'Integer', required: true, default: '0', writable: 'never' },
    { name: 'can_self_serve', type: 'Boolean', required: true, default: 'true', writable: 'never' },
    // Billed from the usage ledger (peak usage over the period) rather than prepaid.
    { name: 'bills_dynamically', type: 'Boolean', required: true, default: 'true', writable: 'never' },
  ],
  unique: [['plan', 'feature']],
} as const satisfies ResourceDef;

export const BILLING_CYCLES = ['monthly', 'annual'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

/** An organization's plan over time: exactly one active row per organization. */
export const subscription = {
  name: 'subscription',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'is_for__organization', type: 'ForeignKey', references: 'organization', required: true, writable: 'never', onDelete: 'cascade' },
    { name: 'is_for__plan', type: 'ForeignKey', references: 'plan', required: true, writable: 'never' },
    { name: 'billing_cycle', type: 'Short Text', required: true, default: "'monthly'", writable: 'never', enum: BILLING_CYCLES },
    { name: 'starts_on__date', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'ends_on__date', type: 'Date Time', writable: 'never' },
    // The current billing period's end (the next period close).
    { name: 'current_period_ends_on__date', type: 'Date Time', writable: 'never' },
    { name: 'is_active', type: 'Boolean', required: true, default: 'true', writable: 'never' },
    { name: 'discount_percentage', type: 'Real', required: true, default: '0', writable: 'never' },
    // Who made it: `signup` (the free plan every organization starts on), `self-serve`, `admin`.
    { name: 'origin', type: 'Short Text', required: true, default: "'signup'", writable: 'never' },
    // The downgrade feedback (spec 3 §4 planChangeReason), kept for the operator.
    { name: 'change_reason', type: 'Text', writable: 'never' },
  ],
  indexes: [['is_for__organization']],
} as const satisfies ResourceDef;
