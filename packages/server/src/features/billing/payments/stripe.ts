import { BILLING_MESSAGES } from '@flotilla/model';
import type { StripeProviderConfig } from '../../../infra/app/context.js';
import type { Db } from '../../../infra/db/db.js';
import { BadRequestError } from '../../../infra/errors.js';
import {
  type BillingCustomer,
  type BillingDetails,
  type BillingInfo,
  type ChargeRequest,
  type ChargeResult,
  type PaymentProvider,
  PaymentProviderUnavailableError,
} from './provider.js';
import { deleteBillingInfo, saveProviderCustomerId, selectBillingInfo, selectProviderIds, upsertBillingInfo } from './payments.repository.js';

const DEFAULT_API_URL = 'https://api.stripe.com';
const DEFAULT_TIMEOUT_MS = 10_000;

/** A Stripe API answer that is an error object (`{ error: { type, code, message } }`). */
class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

type Json = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null ? (v as Json) : {});

/** Form-encodes nested parameters the way Stripe reads them: `metadata[organization_id]=5`. */
function formEncode(params: Json, prefix = '', out = new URLSearchParams()): URLSearchParams {
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    const key = prefix ? `${prefix}[${k}]` : k;
    if (typeof v === 'object' && !Array.isArray(v)) formEncode(v as Json, key, out);
    else if (Array.isArray(v)) v.forEach((item, i) => out.append(`${key}[${i}]`, String(item)));
    else out.append(key, String(v));
  }
  return out;
}

/** The payment method as the dashboard shows it (spec 3 §3 billing info), from a Stripe payment method. */
export function displayOfPaymentMethod(pm: Json): BillingInfo {
  const billing = obj(pm.billing_details);
  const address = obj(billing.address);
  const base: BillingInfo = {
    type: 'card',
    full_name: str(billing.name),
    address1: str(address.line1),
    address2: str(address.line2),
    city: str(address.city),
    state: str(address.state),
    zip: str(address.postal_code),
    country: str(address.country),
    phone: str(billing.phone),
  };
  switch (pm.type) {
    case 'card': {
      const card = obj(pm.card);
      return { ...base, type: 'card', card_type: str(card.brand), last_four: str(card.last4), month: num(card.exp_month), year: num(card.exp_year) };
    }
    case 'us_bank_account': {
      const bank = obj(pm.us_bank_account);
      return { ...base, type: 'us_bank_account', last_four: str(bank.last4), routing_number: str(bank.routing_number) };
    }
    case 'sepa_debit':
      return { ...base, type: 'sepa_debit', last_four: str(obj(pm.sepa_debit).last4) };
    case 'paypal':
    case 'cashapp':
    case 'link':
      return { ...base, type: pm.type };
    default:
      return base;
  }
}

/**
 * The Stripe adapter (issue 18 item 5), over Stripe's HTTP API with `fetch` (form-encoded,
 * `Authorization: Bearer sk_…`, a per-request timeout; `apiUrl` points tests at a stand-in).
 * Each organization is one Stripe customer (`metadata[organization_id]`, its id kept in
 * `billing_account.provider_customer_id`); a payment method comes from a finished setup intent
 * (off-session use) and is the customer's default; a charge is a payment intent confirmed off
 * session. Unreachable, 5xx or refused credentials: 503 (PaymentProviderUnavailableError).
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly kind = 'stripe' as const;
  private readonly apiUrl: string;

  constructor(
    private readonly db: Db,
    private readonly config: StripeProviderConfig,
  ) {
    this.apiUrl = (config.apiUrl ?? DEFAULT_API_URL).replace(/\/+$/, '');
  }

  private async call(method: 'GET' | 'POST' | 'DELETE', path: string, params: Json = {}, idempotencyKey?: string): Promise<Json> {
    if (!this.config.secretKey || !this.config.publishableKey) throw new PaymentProviderUnavailableError(BILLING_MESSAGES.missingProviderConfiguration);
    const form = formEncode(params).toString();
    const url = method === 'GET' && form ? `${this.apiUrl}${path}?${form}` : `${this.apiUrl}${path}`;
    let res: Response;
    let body: unknown;
    try {
      res = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${this.config.secretKey}`,
          ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        ...(method === 'POST' ? { body: form } : {}),
        signal: AbortSignal.timeout(this.config.timeoutMs ?? DEFAULT_TIMEOUT_MS),
        redirect: 'error',
      });
      body = await res.json();
    } catch {
      throw new PaymentProviderUnavailableError(BILLING_MESSAGES.providerUnreachable);
    }
    if (res.status === 401 || res.status === 403) throw new PaymentProviderUnavailableError(BILLING_MESSAGES.providerRefused);
    if (res.status >= 500 || typeof body !== 'object' || body === null) throw new PaymentProviderUnavailableError(BILLING_MESSAGES.providerUnreachable);
    if (!res.ok) {
      const error = obj((body as Json).error);
      throw new StripeError(res.status, str(error.type) ?? 'api_error', str(error.code) ?? undefined, str(error.message) ?? `Stripe answered ${res.status}`);
    }
    return body as Json;
  }

  /** The organization's Stripe customer: the one recorded, else one found by its metadata, else a new one. */
  private async customerId(customer: BillingCustomer): Promise<string> {
    const recorded = (await selectProviderIds(this.db, customer.organizationId)).customerId;
    if (recorded) return recorded;
    const found = await this.call('GET', '/v1/customers/search', { query: `metadata['organization_id']:'${customer.organizationId}'`, limit: 1 });
    let id = str(obj((found.data as unknown[] | undefined)?.[0]).id);
    if (!id) {
      const created = await this.call(
        'POST',
        '/v1/customers',
        { email: customer.email ?? undefined, name: customer.companyName ?? undefined, metadata: { organization_id: customer.organizationId } },
      );
      id = str(created.id);
      if (!id) throw new PaymentProviderUnavailableError(BILLING_MESSAGES.providerUnreachable);
    }
    await saveProviderCustomerId(this.db, customer.organizationId, id);
    return id;
  }

  async createSetupIntent(customer: BillingCustomer): Promise<{ id: string; client_secret: string }> {
    const intent = await this.call('POST', '/v1/setup_intents', {
      customer: await this.customerId(customer),
      usage: 'off_session',
      'automatic_payment_methods[enabled]': 'true',
      metadata: { organization_id: customer.organizationId },
    });
    const id = str(intent.id);
    const secret = str(intent.client_secret);
    if (!id || !secret) throw new PaymentProviderUnavailableError(BILLING_MESSAGES.providerUnreachable);
    return { id, client_secret: secret };
  }

  async attachPaymentMethod(customer: BillingCustomer, token: { token_type: string; token_id: string }, details: BillingDetails): Promise<BillingInfo> {
    if (token.token_type !== 'setup_intent') throw new BadRequestError(BILLING_MESSAGES.setupIntentTokenOnly);
    const customerId = await this.customerId(customer);
    let intent: Json;
    try {
      intent = await this.call('GET', `/v1/setup_intents/${encodeURIComponent(token.token_id)}`);
    } catch (err) {
      if (err instanceof StripeError) throw new BadRequestError(BILLING_MESSAGES.setupIntentNotFound);
      throw err;
    }
    // Another customer's setup intent (another organization's card) is as good as none.
    if (intent.customer !== customerId) throw new BadRequestError(BILLING_MESSAGES.setupIntentNotFound);
    if (intent.status !== 'succeeded') throw new BadRequestError(BILLING_MESSAGES.setupIntentNotFinished);
    const pmId = str(intent.payment_method);
    if (!pmId) throw new BadRequestError(BILLING_MESSAGES.setupIntentNotFinished);
    const pm = await this.call('GET', `/v1/payment_methods/${encodeURIComponent(pmId)}`);
    await this.call('POST', `/v1/customers/${encodeURIComponent(customerId)}`, { invoice_settings: { default_payment_method: pmId } });
    const previous = (await selectProviderIds(this.db, customer.organizationId)).paymentMethodId;
    const shown = displayOfPaymentMethod(pm);
    const info: BillingInfo = { ...shown, ...Object.fromEntries(Object.entries(details).filter(([, v]) => v !== undefined)), type: shown.type };
    await upsertBillingInfo(this.db, customer.organizationId, 'stripe', info, pmId);
    if (previous && previous !== pmId) await this.detach(previous);
    return info;
  }

  async getPaymentMethod(customer: BillingCustomer): Promise<BillingInfo | null> {
    return selectBillingInfo(this.db, customer.organizationId);
  }

  private async detach(pmId: string): Promise<void> {
    try {
      await this.call('POST', `/v1/payment_methods/${encodeURIComponent(pmId)}/detach`);
    } catch (err) {
      // Already detached (or deleted in Stripe's dashboard): nothing left to remove.
      if (!(err instanceof StripeError)) throw err;
    }
  }

  async removePaymentMethod(customer: BillingCustomer): Promise<void> {
    const { paymentMethodId } = await selectProviderIds(this.db, customer.organizationId);
    if (paymentMethodId) await this.detach(paymentMethodId);
    await deleteBillingInfo(this.db, customer.organizationId);
  }

  async charge(customer: BillingCustomer, request: ChargeRequest): Promise<ChargeResult> {
    const { paymentMethodId } = await selectProviderIds(this.db, customer.organizationId);
    if (!paymentMethodId) return { status: 'failed', message: BILLING_MESSAGES.noPaymentMethod };
    try {
      const intent = await this.call(
        'POST',
        '/v1/payment_intents',
        {
          amount: request.amountCents,
          currency: 'usd',
          customer: await this.customerId(customer),
          payment_method: paymentMethodId,
          off_session: 'true',
          confirm: 'true',
          description: request.description,
          metadata: { organization_id: customer.organizationId, invoice_number: request.invoiceNumber },
        },
        `flotilla-charge-${request.invoiceNumber}`,
      );
      const id = str(intent.id) ?? request.invoiceNumber;
      if (intent.status === 'succeeded') return { status: 'paid', reference: id };
      if (intent.status === 'processing') return { status: 'pending', reference: id };
      return { status: 'failed', message: str(obj(intent.last_payment_error).message) ?? 'The payment was not completed' };
    } catch (err) {
      if (err instanceof StripeError) return { status: 'failed', message: err.message };
      throw err;
    }
  }

  async refund(_customer: BillingCustomer, reference: string, amountCents: number): Promise<void> {
    try {
      await this.call('POST', '/v1/refunds', { payment_intent: reference, amount: amountCents }, `flotilla-refund-${reference}-${amountCents}`);
    } catch (err) {
      // Stripe refusing the refund (already refunded there, a disputed payment): say why, nothing recorded.
      if (err instanceof StripeError) throw new BadRequestError(`The payment provider refused the refund: ${err.message}`);
      throw err;
    }
  }
}
