import type { FastifyInstance } from 'fastify';
import { CAPABILITIES } from '@flotilla/model';
import { requireUser } from '../../infra/http/guards.js';
import { planIncludes } from '../billing/index.js';
import { administeredOrganizations } from './identity-provider.repository.js';
import { requireSamlEnabled } from './saml-enabled.js';

/**
 * `GET /identity-provider/v1/eligible-organizations`: the caller's organizations in which they
 * may set up single sign-on — they administer it and its plan includes SAML (every plan while
 * billing is off). The dashboard offers them in the add-provider form and shows the "no SAML
 * access" error when there are none (spec 1 §2). 404 while SAML is off.
 */
export async function eligibleOrganizationsRoutes(app: FastifyInstance): Promise<void> {
  const organization = {
    type: 'object',
    required: ['id', 'name', 'handle'],
    properties: { id: { type: 'integer' }, name: { type: 'string' }, handle: { type: 'string' } },
  } as const;
  app.get(
    '/identity-provider/v1/eligible-organizations',
    {
      schema: {
        response: {
          200: { type: 'object', required: ['organizations'], properties: { organizations: { type: 'array', items: organization } } },
        },
      },
    },
    async (request) => {
      const actor = requireUser(request);
      requireSamlEnabled(app);
      const { db, config } = app.context;
      const billingOn = config.billing?.enabled === true;
      const organizations = [];
      for (const org of await administeredOrganizations(db, actor.userId)) {
        if (await planIncludes(db, billingOn, org.id, CAPABILITIES.saml)) organizations.push(org);
      }
      return { organizations };
    },
  );
}
