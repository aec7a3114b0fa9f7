import { HttpError } from '../../../infra/errors.js';

/**
 * Issue 18 item 5: payment providers behind one interface. The billing service never knows
 * which provider runs: the manual provider (bank transfer / purchase order, paid when a platform
 * administrator marks the invoice paid) or the Stripe adapter (setup intents, off-session
 * charges). Adapters live beside this file; `paymentProvider(app)` picks the configured one.
 */

/** The organization a provider acts for (its customer). */
export interface BillingCustomer {
  organizationId: number;
  /** The billing account's email (invoices and receipts go there). */
  email: string | null;
  companyName: string | null;
}

export type { BillingInfo } from '@flotilla/model';
import type { BillingInfo } from '@flotilla/model';

/** The billing address, company and VAT number sent with a payment method (`PATCH …/info`). */
export type BillingDetails = Pick<BillingInfo, 'company' | 'full_name' | 'address1' | 'address2' | 'city' | 'state' | 'zip' | 'country' | 'phone' | 'vat_number'>;
export const BILLING_DETAIL_FIELDS = ['company', 'full_name', 'address1', 'address2', 'city', 'state', 'zip', 'country', 'phone', 'vat_number'] as const satisfies readonly (keyof BillingDetails)[];

export interface ChargeRequest {
  invoiceNumber: string;
  amountCents: number;
  description: string;
}

/**
 * A charge's outcome: `paid` at once (a card), `pending` until money arrives (a bank transfer:
 * the manual provider always answers this), `failed` with the provider's message.
 */
export type ChargeResult = { status: 'paid'; reference: string } | { status: 'pending'; reference: string } | { status: 'failed'; message: string };

export interface PaymentProvider {
  readonly kind: 'manual' | 'stripe';
  /** Starts setting up a payment method (Stripe: a setup intent, USD, off-session). */
  createSetupIntent(customer: BillingCustomer): Promise<{ id: string; client_secret: string }>;
  /** Attaches the method a finished setup produced (`token_type: 'setup_intent'`, `token_id`). */
  attachPaymentMethod(customer: BillingCustomer, token: { token_type: string; token_id: string }, details: BillingDetails): Promise<BillingInfo>;
  /** The customer's payment method, or null when none is set up. */
  getPaymentMethod(customer: BillingCustomer): Promise<BillingInfo | null>;
  removePaymentMethod(customer: BillingCustomer): Promise<void>;
  /** Charges an invoice to the customer's payment method. */
  charge(customer: BillingCustomer, request: ChargeRequest): Promise<ChargeResult>;
  refund(customer: BillingCustomer, reference: string, amountCents: number): Promise<void>;
}

/** A provider that cannot be reached or is not configured: 503 with this message (nothing written or charged). */
export class PaymentProviderUnavailableError extends HttpError {
  constructor(message: string) {
    super(503, message, { 'Retry-After': '60' });
  }
}
