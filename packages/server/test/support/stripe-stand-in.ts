import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/**
 * A local stand-in for the few Stripe API endpoints the Stripe adapter calls
 * (features/billing/payments/stripe.ts): customers, setup intents, payment methods, payment
 * intents and refunds, form-encoded with a bearer secret key, answering in Stripe's JSON
 * shapes. It records every request. `completeSetup` plays the browser's part (Stripe.js
 * confirming a setup intent with a card); a payment method made with `decline: true` is a card
 * the bank declines off session.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  form: Record<string, string>;
  idempotencyKey: string | undefined;
}

type Json = Record<string, unknown>;
const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

export class StripeStandIn {
  readonly requests: RecordedRequest[] = [];
  readonly customers = new Map<string, Json>();
  readonly setupIntents = new Map<string, Json>();
  readonly paymentMethods = new Map<string, Json & { decline?: boolean }>();
  readonly paymentIntents = new Map<string, Json>();
  readonly refunds: Json[] = [];
  private readonly server: Server;
  url = '';

  constructor(readonly secretKey = 'sk_test_standin') {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The browser confirming setup intent `setupIntentId` with a card (Stripe.js `confirmSetup`). */
  completeSetup(setupIntentId: string, card: { brand?: string; last4?: string; decline?: boolean; type?: 'card' | 'us_bank_account' } = {}): string {
    const intent = this.setupIntents.get(setupIntentId);
    if (!intent) throw new Error(`no setup intent ${setupIntentId}`);
    const pm = id('pm');
    const type = card.type ?? 'card';
    this.paymentMethods.set(pm, {
      id: pm,
      object: 'payment_method',
      type,
      customer: intent.customer,
      decline: card.decline ?? false,
      billing_details: { name: 'Ada Lovelace', phone: '+1 555 0100', address: { line1: '1 Analytical Way', line2: null, city: 'London', state: null, postal_code: 'N1 1AA', country: 'GB' } },
      ...(type === 'card'
        ? { card: { brand: card.brand ?? 'visa', last4: card.last4 ?? '4242', exp_month: 12, exp_year: 2030 } }
        : { us_bank_account: { last4: card.last4 ?? '6789', routing_number: '110000000', bank_name: 'STRIPE TEST BANK' } }),
    });
    intent.status = 'succeeded';
    intent.payment_method = pm;
    return pm;
  }

  /** The requests to `path` (a prefix), in order. */
  to(method: string, pathPrefix: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && r.path.startsWith(pathPrefix));
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private error(res: ServerResponse, status: number, type: string, message: string, code?: string): void {
    this.send(res, status, { error: { type, message, ...(code ? { code } : {}) } });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const raw = req.method === 'GET' ? url.searchParams : new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const form = Object.fromEntries(raw.entries());
    const idempotency = req.headers['idempotency-key'];
    this.requests.push({ method: req.method ?? '', path: url.pathname, form, idempotencyKey: typeof idempotency === 'string' ? idempotency : undefined });
    if (req.headers.authorization !== `Bearer ${this.secretKey}`) return this.error(res, 401, 'invalid_request_error', 'Invalid API Key provided');
    const parts = url.pathname.split('/').filter(Boolean); // ['v1', 'customers', …]
    const [, kind, objectId, action] = parts;
    const missing = () => this.error(res, 404, 'invalid_request_error', `No such ${kind}: '${objectId}'`, 'resource_missing');

    if (kind === 'customers' && objectId === 'search' && req.method === 'GET') {
      const m = /metadata\['organization_id'\]:'(\d+)'/.exec(form.query ?? '');
      const data = [...this.customers.values()].filter((c) => m && (c.metadata as Json).organization_id === m[1]);
      return this.send(res, 200, { object: 'search_result', data });
    }
    if (kind === 'customers' && !objectId && req.method === 'POST') {
      const c = { id: id('cus'), object: 'customer', email: form.email ?? null, name: form.name ?? null, metadata: { organization_id: form['metadata[organization_id]'] } };
      this.customers.set(c.id, c);
      return this.send(res, 200, c);
    }
    if (kind === 'customers' && objectId && req.method === 'POST') {
      const c = this.customers.get(objectId);
      if (!c) return missing();
      c.invoice_settings = { default_payment_method: form['invoice_settings[default_payment_method]'] ?? null };
      return this.send(res, 200, c);
    }
    if (kind === 'setup_intents' && !objectId && req.method === 'POST') {
      if (!form.customer || !this.customers.has(form.customer)) return this.error(res, 400, 'invalid_request_error', 'No such customer');
      const si = { id: id('seti'), object: 'setup_intent', customer: form.customer, usage: form.usage, status: 'requires_payment_method', payment_method: null } as Json;
      si.client_secret = `${String(si.id)}_secret_${randomBytes(6).toString('hex')}`;
      this.setupIntents.set(String(si.id), si);
      return this.send(res, 200, si);
    }
    if (kind === 'setup_intents' && objectId && req.method === 'GET') {
      const si = this.setupIntents.get(objectId);
      return si ? this.send(res, 200, si) : missing();
    }
    if (kind === 'payment_methods' && objectId && !action && req.method === 'GET') {
      const pm = this.paymentMethods.get(objectId);
      if (!pm) return missing();
      const { decline: _decline, ...shown } = pm;
      return this.send(res, 200, shown);
    }
    if (kind === 'payment_methods' && objectId && action === 'detach' && req.method === 'POST') {
      const pm = this.paymentMethods.get(objectId);
      if (!pm) return missing();
      pm.customer = null;
      return this.send(res, 200, pm);
    }
    if (kind === 'payment_intents' && !objectId && req.method === 'POST') {
      const pm = this.paymentMethods.get(form.payment_method ?? '');
      if (!pm || pm.customer !== form.customer) return this.error(res, 400, 'invalid_request_error', 'No such PaymentMethod', 'resource_missing');
      if (pm.decline) return this.error(res, 402, 'card_error', 'Your card was declined.', 'card_declined');
      const pi = { id: id('pi'), object: 'payment_intent', amount: Number(form.amount), currency: form.currency, customer: form.customer, status: 'succeeded' };
      this.paymentIntents.set(pi.id, pi);
      return this.send(res, 200, pi);
    }
    if (kind === 'refunds' && req.method === 'POST') {
      if (!this.paymentIntents.has(form.payment_intent ?? '')) return missing();
      const r = { id: id('re'), object: 'refund', payment_intent: form.payment_intent, amount: Number(form.amount), status: 'succeeded' };
      this.refunds.push(r);
      return this.send(res, 200, r);
    }
    return this.error(res, 404, 'invalid_request_error', `Unrecognized request URL (${req.method} ${url.pathname})`);
  }
}
