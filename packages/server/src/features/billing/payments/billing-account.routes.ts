import type { FastifyInstance } from 'fastify';
import { BILLING_ADDRESS_FIELD_MAX, BILLING_VAT_NUMBER_MAX, billingAccountProblem } from '@flotilla/model';
import { BadRequestError, NotFoundError } from '../../../infra/errors.js';
import { CAPTCHA_RESPONSE, EMAIL, EMPTY_BODY, objectOf } from '../../../infra/http/schemas.js';
import { checkCaptcha } from '../../account-recovery/index.js';
import { requireBillingAccess } from '../access.js';
import { selectBillingAccount, selectBillingCustomer, upsertBillingAccountContacts } from './payments.repository.js';
import { BILLING_DETAIL_FIELDS, type BillingCustomer, type BillingDetails } from './provider.js';
import { paymentProvider } from './index.js';

/**
 * Issue 18 item 5 (docs/billing.md "Billing account and payment method"): the billing account
 * (`GET`/`PATCH /billing/v1/account/{org}`), its payment method (`GET`/`PATCH`/`DELETE …/info`)
 * and card setup (`POST …/setup-intent`), through the configured payment provider. Every
 * call needs billing access (access.ts).
 */

const params = { type: 'object', required: ['org'], properties: { org: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } } } as const;

const accountBody = objectOf(
  {
    // No minLength: an empty address gets the rule's message (spec 3 §5), not the schema's.
    email: { type: 'string', maxLength: EMAIL.maxLength },
    // Bounded here; the rule (at most BILLING_CC_EMAILS_MAX, each valid) answers with its own message.
    cc_emails: { type: 'array', maxItems: 100, items: EMAIL },
  },
  ['email'],
);

const detail = { type: ['string', 'null'], maxLength: BILLING_ADDRESS_FIELD_MAX } as const;
const infoBody = {
  type: 'object',
  required: ['token_type', 'token_id'],
  properties: {
    token_type: { type: 'string', minLength: 1, maxLength: 64 },
    token_id: { type: 'string', maxLength: 255 },
    company: detail,
    full_name: detail,
    address1: detail,
    address2: detail,
    city: detail,
    state: detail,
    zip: { type: ['string', 'null'], maxLength: 32 },
    country: { type: ['string', 'null'], maxLength: 64 },
    phone: { type: ['string', 'null'], maxLength: 64 },
    vat_number: { type: ['string', 'null'], maxLength: BILLING_VAT_NUMBER_MAX },
  },
  additionalProperties: false,
} as const;

const setupIntentBody = objectOf({ organization: { type: ['integer', 'string'], maxLength: 100 }, 'g-recaptcha-response': CAPTCHA_RESPONSE });

type InfoBody = { token_type: string; token_id: string } & BillingDetails;

async function customerOf(app: FastifyInstance, orgId: number): Promise<BillingCustomer> {
  const customer = await selectBillingCustomer(app.context.db, orgId);
  if (!customer) throw new NotFoundError('Organization not found');
  return customer;
}

export async function billingAccountRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { org: number } }>('/billing/v1/account/:org', { schema: { params } }, async (request) => {
    const orgId = request.params.org;
    await requireBillingAccess(app, request, orgId);
    const row = await selectBillingAccount(app.context.db, orgId);
    if (!row) throw new NotFoundError('Organization not found');
    const customer = await customerOf(app, orgId);
    const info = row.billing_info;
    return {
      email: row.email ?? customer.email,
      cc_emails: row.cc_emails,
      account_state: row.account_state,
      company_name: row.company_name,
      // balena-sdk AccountInfo: the billing address (all null before a payment method is set up) and the VAT number.
      address: {
        address1: info?.address1 ?? null,
        address2: info?.address2 ?? null,
        city: info?.city ?? null,
        state: info?.state ?? null,
        zip: info?.zip ?? null,
        country: info?.country ?? null,
        phone: info?.phone ?? null,
      },
      tax_id: info?.vat_number ? { type: 'vat', value: info.vat_number } : null,
    };
  });

  app.patch<{ Params: { org: number }; Body: { email: string; cc_emails?: string[] } }>(
    '/billing/v1/account/:org',
    { schema: { params, body: accountBody }, config: { audit: { action: 'billing.account.update', targets: [{ resource: 'organization', from: 'params', field: 'org' }] } } },
    async (request) => {
      const orgId = request.params.org;
      await requireBillingAccess(app, request, orgId);
      const email = request.body.email.trim();
      const cc = (request.body.cc_emails ?? []).map((a) => a.trim());
      const problem = billingAccountProblem({ email, cc_emails: cc });
      if (problem) throw new BadRequestError(problem);
      await upsertBillingAccountContacts(app.context.db, orgId, email, cc);
      return { email, cc_emails: cc };
    },
  );

  app.get<{ Params: { org: number } }>('/billing/v1/account/:org/info', { schema: { params } }, async (request) => {
    const orgId = request.params.org;
    await requireBillingAccess(app, request, orgId);
    return (await paymentProvider(app).getPaymentMethod(await customerOf(app, orgId))) ?? {};
  });

  app.patch<{ Params: { org: number }; Body: InfoBody }>('/billing/v1/account/:org/info', { schema: { params, body: infoBody }, config: { audit: { action: 'billing.payment_method.set', targets: [{ resource: 'organization', from: 'params', field: 'org' }] } } }, async (request) => {
    const orgId = request.params.org;
    await requireBillingAccess(app, request, orgId);
    const { token_type, token_id, ...rest } = request.body;
    const details: BillingDetails = {};
    for (const f of BILLING_DETAIL_FIELDS) {
      const v = rest[f];
      if (v !== undefined) details[f] = v === null ? null : v.trim();
    }
    return paymentProvider(app).attachPaymentMethod(await customerOf(app, orgId), { token_type, token_id }, details);
  });

  app.delete<{ Params: { org: number } }>('/billing/v1/account/:org/info', { schema: { params, body: EMPTY_BODY }, config: { audit: { action: 'billing.payment_method.remove', targets: [{ resource: 'organization', from: 'params', field: 'org' }] } } }, async (request) => {
    const orgId = request.params.org;
    await requireBillingAccess(app, request, orgId);
    await paymentProvider(app).removePaymentMethod(await customerOf(app, orgId));
    return {};
  });

  app.post<{ Params: { org: number }; Body: { 'g-recaptcha-response'?: string } }>(
    '/billing/v1/account/:org/setup-intent',
    { schema: { params, body: setupIntentBody }, config: { noStore: true, audit: { action: 'billing.setup_intent', targets: [{ resource: 'organization', from: 'params', field: 'org' }] } } },
    async (request) => {
      const orgId = request.params.org;
      await requireBillingAccess(app, request, orgId);
      // Like sign-up's (spec 3 §5 payment form): a dummy passes when no captcha is configured.
      await checkCaptcha(app.context.config.accounts?.captcha, request.body['g-recaptcha-response'], request.ip);
      return paymentProvider(app).createSetupIntent(await customerOf(app, orgId));
    },
  );
}
