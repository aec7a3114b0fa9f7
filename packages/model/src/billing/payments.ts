import { isValidEmail } from '../common/validation.js';
import { formatCents } from './catalogue.js';
import { CONTACT_SALES_CENTS, CREDIT_PURCHASE_MAX } from './rules.js';

/**
 * Issue 18 items 5 and 7: the rules of the billing account, the payment method form and a
 * credit purchase that the server enforces and the dashboard mirrors (docs/billing.md).
 */

/** At most this many cc addresses on a billing account. */
export const BILLING_CC_EMAILS_MAX = 10;
/** Longest billing address field (company, name, street lines, city…) the server keeps. */
export const BILLING_ADDRESS_FIELD_MAX = 200;
export const BILLING_VAT_NUMBER_MAX = 32;

export const BILLING_MESSAGES = {
  /** Spec 3 §5 fields_errors.invalid_email. */
  invalidEmail: 'Please enter a valid email address',
  invalidCcEmail: (address: string) => `Please enter a valid email address for every cc recipient: '${address.slice(0, 100)}' is not one`,
  tooManyCcEmails: `A billing account has at most ${BILLING_CC_EMAILS_MAX} cc recipients`,
  duplicateCcEmail: 'Each cc recipient may be listed once',
  /** Spec 3 §8. */
  missingProviderConfiguration: 'Missing billing provider configuration parameters',
  providerUnreachable: 'The payment provider cannot be reached right now. Please try again in a few minutes.',
  providerRefused: 'The payment provider refused this server’s credentials: the operator must check the billing provider configuration',
  manualSetupNotNeeded: 'This server takes payment by bank transfer or purchase order: no card setup is needed. Choose "Pay by invoice" instead.',
  manualTokenOnly: "This server takes payment by bank transfer or purchase order: send token_type 'manual'.",
  setupIntentTokenOnly: "Send the finished setup intent: token_type 'setup_intent' and its id as token_id",
  setupIntentNotFound: 'That payment method setup was not found for this organization. Please add the payment method again.',
  setupIntentNotFinished: 'That payment method setup is not finished. Please complete it and try again.',
  noPaymentMethod: 'Add a payment method before buying credits',
} as const;

/** What is wrong with a billing account's email and cc list (undefined: nothing). */
export function billingAccountProblem(input: { email: string; cc_emails?: readonly string[] | undefined }): string | undefined {
  if (!isValidEmail(input.email.trim())) return BILLING_MESSAGES.invalidEmail;
  const cc = input.cc_emails ?? [];
  if (cc.length > BILLING_CC_EMAILS_MAX) return BILLING_MESSAGES.tooManyCcEmails;
  for (const address of cc) if (!isValidEmail(address.trim())) return BILLING_MESSAGES.invalidCcEmail(address);
  if (new Set(cc.map((a) => a.trim().toLowerCase())).size !== cc.length) return BILLING_MESSAGES.duplicateCcEmail;
  return undefined;
}

export const CREDIT_MESSAGES = {
  quantity: `The number of credits must be a whole number from 1 to ${CREDIT_PURCHASE_MAX.toLocaleString('en-US')}`,
  planWithoutCredits: 'Credits are available on the Pilot, Production and Enterprise plans. Upgrade your plan to buy credits.',
  notTheCreditsFeature: "Credits are bought for the device credits feature ('credits:device')",
  contactSales: `Purchases of ${formatCents(CONTACT_SALES_CENTS)} or more are arranged with our sales team: please contact sales.`,
  threshold: `The notification threshold must be a whole number from 0 to ${CREDIT_PURCHASE_MAX.toLocaleString('en-US')}`,
} as const;

/** Spec 3 §4/§5: a purchase of `quantity` credits at `unitCents` each (undefined: fine). */
export function creditPurchaseProblem(quantity: unknown, unitCents: number): string | undefined {
  if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1 || quantity > CREDIT_PURCHASE_MAX) return CREDIT_MESSAGES.quantity;
  if (quantity * unitCents >= CONTACT_SALES_CENTS) return CREDIT_MESSAGES.contactSales;
  return undefined;
}

/** Spec 3 §3 billing info types, with `manual` (payment by bank transfer or purchase order). */
export const BILLING_INFO_TYPES = ['credit_card', 'card', 'bank_account', 'us_bank_account', 'sepa_debit', 'paypal', 'cashapp', 'link', 'manual'] as const;
export type BillingInfoType = (typeof BILLING_INFO_TYPES)[number];

/**
 * Spec 3 §3 billing info: the payment method as the dashboard shows it (`GET …/info`) and the
 * billing address. The server writes it; the dashboard reads it.
 */
export interface BillingInfo {
  type: BillingInfoType;
  company?: string | null;
  full_name?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  email?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
  country?: string | null;
  phone?: string | null;
  vat_number?: string | null;
  last_four?: string | null;
  first_one?: string | null;
  card_type?: string | null;
  month?: number | null;
  year?: number | null;
  routing_number?: string | null;
}
