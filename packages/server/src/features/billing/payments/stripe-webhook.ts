import { createHmac, timingSafeEqual } from 'node:crypto';
import { DEFAULT_CREDIT_PURCHASE_ERROR } from '@flotilla/model';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../infra/db/db.js';
import { BadRequestError, HttpError, NotFoundError, PayloadTooLargeError } from '../../../infra/errors.js';
import { markInvoicePaid, UNPAID_STATES, type InvoiceRow } from '../invoices/invoice.repository.js';
import { recomputePastDue } from '../invoices/past-due.js';
import { billingEnabled, BILLING_OFF_MESSAGE } from '../access.js';
import { markBundleRefunded, markInvoiceRefunded, selectBundleOfInvoice } from '../credits/admin-credits.repository.js';
import {
  insertWebhookEvent,
  selectInvoiceOfIntent,
  setInvoiceState,
  setWebhookEventOutcome,
  updateBundleState,
} from './stripe-webhook.repository.js';

/**
 * Stripe webhooks (docs/billing.md "Stripe webhooks"): `POST /billing/v1/stripe/webhook`.
 * Stripe signs each delivery (`Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>" keyed by the endpoint's signing secret>`); the raw body is verified before
 * it is parsed. Events are processed once (their ids are remembered); a payment intent's
 * outcome settles the invoice it was charged for (and a credit bundle paid by it).
 */

export const WEBHOOK_PATH = '/billing/v1/stripe/webhook';
/** Stripe's events are small; this bounds what is read before the signature is checked. */
export const WEBHOOK_BODY_MAX_BYTES = 256 * 1024;
/** How old (or how far in the future) a signature's timestamp may be: Stripe's default, 5 minutes. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export const WEBHOOK_MESSAGES = {
  notStripe: 'Stripe webhooks are not enabled on this server (the Stripe payment provider is not configured)',
  noSecret: 'Stripe webhooks are not configured on this server: set FLOTILLA_STRIPE_WEBHOOK_SECRET to the endpoint’s signing secret',
  missingSignature: 'Missing Stripe-Signature header',
  badSignature: 'The Stripe-Signature does not match this payload and the webhook signing secret',
  staleSignature: `The Stripe-Signature timestamp is more than ${WEBHOOK_TOLERANCE_SECONDS / 60} minutes away from the server's time`,
  notAnEvent: 'The body is not a Stripe event (JSON with id, type and data.object)',
  tooLarge: `The webhook body is larger than ${WEBHOOK_BODY_MAX_BYTES / 1024} KB`,
} as const;

/** `t=…,v1=…,v1=…` → the timestamp and every v1 signature (other schemes are ignored, as Stripe advises). */
export function parseSignatureHeader(header: string): { timestamp: number | null; signatures: string[] } {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  return { timestamp, signatures };
}

/** The v1 signature Stripe computes for `payload` sent at `timestamp` (seconds). */
export function signPayload(secret: string, timestamp: number, payload: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest('hex');
}

/**
 * Checks a delivery's `Stripe-Signature` against the raw body: a v1 signature must match
 * (constant-time) and the timestamp must be within the tolerance of `nowMs`. Throws 400 with
 * what is wrong.
 */
export function verifySignature(secret: string, header: string | undefined, payload: Buffer, nowMs: number): void {
  if (!header) throw new BadRequestError(WEBHOOK_MESSAGES.missingSignature);
  const { timestamp, signatures } = parseSignatureHeader(header);
  if (timestamp === null || signatures.length === 0) throw new BadRequestError(WEBHOOK_MESSAGES.badSignature);
  const expected = Buffer.from(signPayload(secret, timestamp, payload), 'hex');
  const matches = signatures.some((s) => {
    const given = Buffer.from(s, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new BadRequestError(WEBHOOK_MESSAGES.badSignature);
  if (Math.abs(nowMs / 1000 - timestamp) > WEBHOOK_TOLERANCE_SECONDS) throw new BadRequestError(WEBHOOK_MESSAGES.staleSignature);
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

interface StripeEvent {
  id: string;
  type: string;
  object: Json;
}

function parseEvent(payload: Buffer): StripeEvent {
  let body: unknown;
  try {
    body = JSON.parse(payload.toString('utf8'));
  } catch {
    throw new BadRequestError(WEBHOOK_MESSAGES.notAnEvent);
  }
  const event = obj(body);
  const id = str(event.id);
  const type = str(event.type);
  const data = obj(event.data);
  if (!id || id.length > 255 || !type || type.length > 255 || typeof data.object !== 'object' || data.object === null) throw new BadRequestError(WEBHOOK_MESSAGES.notAnEvent);
  return { id, type, object: obj(data.object) };
}

/** The webhook secret of a server running the Stripe provider (404 otherwise, 503 without the secret). */
function webhookSecret(app: FastifyInstance): string {
  if (!billingEnabled(app)) throw new NotFoundError(BILLING_OFF_MESSAGE);
  const provider = app.context.config.billing?.provider;
  if (provider?.kind !== 'stripe') throw new NotFoundError(WEBHOOK_MESSAGES.notStripe);
  if (!provider.webhookSecret) throw new HttpError(503, WEBHOOK_MESSAGES.noSecret);
  return provider.webhookSecret;
}

const isUnpaid = (invoice: InvoiceRow) => (UNPAID_STATES as readonly string[]).includes(invoice.state);

/** `payment_intent.succeeded`: the invoice it was charged for is paid; a credit bundle paid by it counts. */
async function intentSucceeded(app: FastifyInstance, tx: Db, intent: Json, now: Date): Promise<string> {
  const intentId = str(intent.id);
  if (!intentId) return 'ignored: no payment intent id';
  const invoice = await selectInvoiceOfIntent(tx, intentId, str(obj(intent.metadata).invoice_number));
  if (!invoice) return `ignored: no invoice charged by ${intentId}`;
  if (!isUnpaid(invoice)) return `${invoice.invoice_number} already ${invoice.state}`;
  await markInvoicePaid(tx, invoice.id, now, intentId);
  const bundle = invoice.kind === 'credits' ? await selectBundleOfInvoice(tx, invoice.invoice_number) : undefined;
  if (bundle && (bundle.payment_status === 'processing' || bundle.payment_status === 'failed')) {
    await updateBundleState(tx, bundle.id, { status: 'paid', balance: bundle.original_quantity, errorMessage: null });
  }
  await recomputePastDue(app, tx, [invoice.organization]);
  return `${invoice.invoice_number} paid`;
}

/**
 * `payment_intent.payment_failed`: the invoice stays unpaid with Stripe's message: `failed`,
 * or still `past_due` once it is (spec 3 §4 invoice states: both red); it keeps counting
 * towards past due and freezing. A credit bundle waiting for it fails (no credits).
 */
async function intentFailed(app: FastifyInstance, tx: Db, intent: Json): Promise<string> {
  const intentId = str(intent.id);
  if (!intentId) return 'ignored: no payment intent id';
  const invoice = await selectInvoiceOfIntent(tx, intentId, str(obj(intent.metadata).invoice_number));
  if (!invoice) return `ignored: no invoice charged by ${intentId}`;
  if (!isUnpaid(invoice)) return `${invoice.invoice_number} already ${invoice.state}`;
  const message = (str(obj(intent.last_payment_error).message) ?? 'The payment failed').slice(0, 2000);
  await setInvoiceState(tx, invoice.id, invoice.state === 'past_due' ? 'past_due' : 'failed', message, intentId);
  const bundle = invoice.kind === 'credits' ? await selectBundleOfInvoice(tx, invoice.invoice_number) : undefined;
  if (bundle?.payment_status === 'processing') {
    await updateBundleState(tx, bundle.id, { status: 'failed', balance: 0, errorMessage: message || DEFAULT_CREDIT_PURCHASE_ERROR });
  }
  await recomputePastDue(app, tx, [invoice.organization]);
  return `${invoice.invoice_number} failed: ${message}`;
}

/**
 * `charge.refunded` (a refund made in Stripe's dashboard, or the echo of one made in `/admin`):
 * fully refunded → the invoice is `refunded` and a credit bundle it paid is `refunded` (its
 * credits withdrawn), as an administrator's refund does; a partial refund leaves both as they
 * are and is recorded on the event. An invoice already refunded is left as it is.
 */
async function chargeRefunded(tx: Db, charge: Json, now: Date): Promise<string> {
  const intentId = str(charge.payment_intent);
  if (!intentId) return 'ignored: no payment intent';
  const invoice = await selectInvoiceOfIntent(tx, intentId, str(obj(charge.metadata).invoice_number));
  if (!invoice) return `ignored: no invoice charged by ${intentId}`;
  const refunded = typeof charge.amount_refunded === 'number' ? charge.amount_refunded : 0;
  if (charge.refunded !== true) return `${invoice.invoice_number} partially refunded: ${refunded} cents`;
  if (invoice.state !== 'paid') return `${invoice.invoice_number} refunded while ${invoice.state}: left as it is`;
  await markInvoiceRefunded(tx, invoice.id, now);
  const bundle = invoice.kind === 'credits' ? await selectBundleOfInvoice(tx, invoice.invoice_number) : undefined;
  if (bundle) await markBundleRefunded(tx, bundle.id);
  return `${invoice.invoice_number} refunded (${refunded} cents)`;
}

export async function stripeWebhookRoutes(app: FastifyInstance): Promise<void> {
  // The raw body: the signature is over the exact bytes Stripe sent (this scope only).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_MAX_BYTES }, (_req, body, done) => done(null, body));

  app.post<{ Body: Buffer | undefined }>(
    WEBHOOK_PATH,
    {
      bodyLimit: WEBHOOK_BODY_MAX_BYTES,
      config: { noStore: true, ownInput: `a Stripe event (application/json, at most ${WEBHOOK_BODY_MAX_BYTES / 1024} KB), verified by its Stripe-Signature, then read by parseEvent` },
      onRequest: async (request) => {
        webhookSecret(app);
        if (Number(request.headers['content-length'] ?? 0) > WEBHOOK_BODY_MAX_BYTES) throw new PayloadTooLargeError(WEBHOOK_MESSAGES.tooLarge);
      },
    },
    async (request) => {
      const secret = webhookSecret(app);
      const payload = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const header = request.headers['stripe-signature'];
      verifySignature(secret, typeof header === 'string' ? header : undefined, payload, app.context.clock());
      const event = parseEvent(payload);
      const now = new Date(app.context.clock());
      const result = await app.context.db.tx(async (tx) => {
        if (!(await insertWebhookEvent(tx, event.id, event.type))) return { duplicate: true, outcome: 'already processed' };
        let outcome: string;
        switch (event.type) {
          case 'payment_intent.succeeded':
            outcome = await intentSucceeded(app, tx, event.object, now);
            break;
          case 'payment_intent.payment_failed':
            outcome = await intentFailed(app, tx, event.object);
            break;
          case 'charge.refunded':
            outcome = await chargeRefunded(tx, event.object, now);
            break;
          default:
            outcome = 'ignored: not an event this server handles';
        }
        await setWebhookEventOutcome(tx, event.id, outcome);
        return { duplicate: false, outcome };
      });
      request.log.info({ event: event.id, type: event.type, duplicate: result.duplicate }, `stripe webhook ${event.type}: ${result.outcome}`);
      return { received: true, ...(result.duplicate ? { duplicate: true } : {}) };
    },
  );
}
