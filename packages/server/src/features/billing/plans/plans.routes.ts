import { isSelfServe } from '@flotilla/model';
import type { FastifyInstance } from 'fastify';
import { BadRequestError, NotFoundError } from '../../../infra/errors.js';
import { requireBillingAccess, requireBillingOn, requirePlatformAdministrator } from '../access.js';
import { cataloguePlanOf, changePlan, planInfo } from './plan-change.js';
import { selectPlans, updatePlan, type PlanEdit, type PlanWithFeatures } from './plans.repository.js';

const orgParams = {
  type: 'object',
  required: ['org'],
  properties: { org: { type: 'integer', minimum: 1, maximum: 2147483647 } },
} as const;

const planChangeBody = {
  type: 'object',
  required: ['tier'],
  additionalProperties: false,
  properties: {
    tier: { type: 'string', minLength: 1, maxLength: 255 },
    annual: { type: 'boolean' },
    planChangeReason: { type: 'string', maxLength: 2000 },
  },
} as const;

const date = { type: ['string', 'null'], format: 'date-time', maxLength: 64 } as const;
const planEditBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 255 },
    monthly_price: { type: 'integer', minimum: 0, maximum: 1_000_000_000 },
    annual_price: { type: 'integer', minimum: 0, maximum: 1_000_000_000 },
    can_self_serve: { type: 'boolean' },
    is_valid_from__date: date,
    is_valid_until__date: date,
  },
} as const;

/** A plan as the admin catalogue editor shows it. */
function adminPlan(p: PlanWithFeatures, now: Date) {
  return {
    id: p.id,
    billing_code: p.billing_code,
    title: p.title,
    monthly_price: p.monthly_price,
    annual_price: p.annual_price,
    can_self_serve: p.can_self_serve,
    is_legacy: p.is_legacy,
    is_valid_from__date: p.is_valid_from__date?.toISOString() ?? null,
    is_valid_until__date: p.is_valid_until__date?.toISOString() ?? null,
    support_tier: p.support_tier,
    position: p.position,
    is_self_serve: isSelfServeNow(p, now),
    includes: p.includes,
    addons: p.addons,
  };
}
const isSelfServeNow = (p: PlanWithFeatures, now: Date) => isSelfServe(cataloguePlanOf(p), now);

/** Routes of billing plans (docs/billing.md "The API"). */
export async function plansRoutes(app: FastifyInstance): Promise<void> {
  const db = app.context.db;
  const now = () => new Date(app.context.clock());

  app.get<{ Params: { org: number } }>('/billing/v1/account/:org/plan', { schema: { params: orgParams } }, async (request) => {
    await requireBillingAccess(app, request, request.params.org);
    return planInfo(db, request.params.org, now());
  });

  app.patch<{ Params: { org: number }; Body: { tier: string; annual?: boolean; planChangeReason?: string } }>(
    '/billing/v1/account/:org/plan',
    {
      schema: { params: orgParams, body: planChangeBody },
      config: { audit: { action: 'billing.plan.change', targets: [{ resource: 'organization', from: 'params', field: 'org' }] } },
      // Who may change the plan is decided before the body is looked at.
      preValidation: async (request) => {
        const org = Number((request.params as { org?: unknown }).org);
        if (Number.isInteger(org) && org > 0) await requireBillingAccess(app, request, org);
      },
    },
    async (request) => {
      const actor = await requireBillingAccess(app, request, request.params.org);
      const { outcome, subscription, invoiceNumber, loweredOperators } = await changePlan(app, request.params.org, actor.userId, {
        tier: request.body.tier,
        annual: request.body.annual === true,
        planChangeReason: request.body.planChangeReason,
      });
      // loweredOperators: how many operator grants became observer (a plan without operator seats).
      return { outcome, billingCycle: subscription.billing_cycle, ...(invoiceNumber ? { invoiceNumber } : {}), ...(loweredOperators ? { loweredOperators } : {}) };
    },
  );

  app.get('/admin/v1/billing/plans', { schema: {} }, async (request) => {
    requirePlatformAdministrator(request);
    requireBillingOn(app);
    const at = now();
    return (await selectPlans(db)).map((p) => adminPlan(p, at));
  });

  app.patch<{ Params: { id: number }; Body: PlanEdit }>(
    '/admin/v1/billing/plans/:id',
    {
      schema: { params: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } }, body: planEditBody },
      preValidation: async (request) => {
        requirePlatformAdministrator(request);
      },
    },
    async (request) => {
      const admin = requirePlatformAdministrator(request);
      requireBillingOn(app);
      const { is_valid_from__date: from, is_valid_until__date: until } = request.body;
      if (from && until && new Date(from) >= new Date(until)) throw new BadRequestError('is_valid_until__date must be after is_valid_from__date');
      if (!(await updatePlan(db, request.params.id, request.body))) throw new NotFoundError('Plan not found');
      request.log.info({ administratorId: admin.userId, plan: request.params.id, edit: request.body }, `platform administrator ${admin.userId} edited billing plan ${request.params.id}`);
      const plan = (await selectPlans(db)).find((p) => p.id === request.params.id)!;
      return adminPlan(plan, now());
    },
  );
}
