import type { FastifyInstance } from 'fastify';

export interface MapOptions {
  /** FLOTILLA_MAP_TILE_URL: a tile URL template; unset = no tiles. */
  tileUrl?: string;
  /** FLOTILLA_MAP_ATTRIBUTION: the tile provider's attribution text. */
  attribution?: string;
}

function stripePublishableKey(app: FastifyInstance): string | null {
  const billing = app.context.config.billing;
  return billing?.enabled === true && billing.provider?.kind === 'stripe' && billing.provider.publishableKey ? billing.provider.publishableKey : null;
}

/**
 * `GET /config/dashboard`: the server settings the dashboard needs before it can draw some
 * pages (today the map tile server). Unauthenticated and secret-free, like balena's `/config`,
 * whose shape stays as the SDK expects it; the dialect claims `/config` and `/config/vars`,
 * not this path.
 */
export async function dashboardConfigRoutes(
  app: FastifyInstance,
  opts: { map?: MapOptions; docsUrl?: string | undefined; captchaSiteKey?: string | undefined; requireEmailVerification?: boolean | undefined; billing?: boolean | undefined },
): Promise<void> {
  const body = {
    mapTileUrl: opts.map?.tileUrl ?? null,
    mapAttribution: opts.map?.attribution ?? null,
    // Where the dashboard's documentation links go (FLOTILLA_DOCS_URL; default the guides
    // this server ships at /docs/), and whether billing is on (FLOTILLA_BILLING; seat prices,
    // plan limits and the billing pages apply only then).
    docsUrl: opts.docsUrl ?? '/docs/',
    billing: opts.billing === true,
    // Sign-up captcha (FLOTILLA_CAPTCHA_SITE_KEY; null = the dashboard sends a dummy response)
    // and FLOTILLA_REQUIRE_EMAIL_VERIFICATION (issue 6).
    captchaSiteKey: opts.captchaSiteKey ?? null,
    requireEmailVerification: opts.requireEmailVerification ?? false,
    // The card form's publishable key when billing runs with the Stripe provider (issue 18
    // item 5; FLOTILLA_STRIPE_PUBLISHABLE_KEY), else null: payment is by invoice.
    stripePublishableKey: stripePublishableKey(app),
  };
  app.get(
    '/config/dashboard',
    {
      schema: {
        response: {
          200: {
            type: 'object',
            required: ['mapTileUrl', 'mapAttribution', 'docsUrl', 'billing'],
            properties: {
              mapTileUrl: { type: ['string', 'null'] },
              mapAttribution: { type: ['string', 'null'] },
              docsUrl: { type: 'string' },
              billing: { type: 'boolean' },
              captchaSiteKey: { type: ['string', 'null'] },
              requireEmailVerification: { type: 'boolean' },
              stripePublishableKey: { type: ['string', 'null'] },
            },
          },
        },
      },
    },
    async (_request, reply) => reply.header('Cache-Control', 'no-cache').send(body),
  );
}
