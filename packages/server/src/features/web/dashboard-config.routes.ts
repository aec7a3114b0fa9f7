import type { FastifyInstance } from 'fastify';

export interface MapOptions {
  /** FLOTILLA_MAP_TILE_URL: a tile URL template; unset = no tiles. */
  tileUrl?: string;
  /** FLOTILLA_MAP_ATTRIBUTION: the tile provider's attribution text. */
  attribution?: string;
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
            },
          },
        },
      },
    },
    async (_request, reply) => reply.header('Cache-Control', 'no-cache').send(body),
  );
}
