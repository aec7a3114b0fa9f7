import type { FastifyInstance } from 'fastify';
import type { AnnouncementConfig, DashboardLinks } from '../../infra/app/context.js';

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

/** Where the dashboard loads Stripe.js from, when billing runs with Stripe and it is configured. */
export function stripeJsUrl(app: FastifyInstance): string | undefined {
  const billing = app.context.config.billing;
  return billing?.enabled === true && billing.provider?.kind === 'stripe' ? billing.provider.jsUrl : undefined;
}

/** The operator's name, contact and service agreement (the plans file's `seller`), when billing is on. */
function billingSeller(app: FastifyInstance): { name: string; email: string | null; agreementUrl: string | null } | null {
  const billing = app.context.config.billing;
  const seller = billing?.enabled === true ? billing.catalogue?.seller : undefined;
  return seller ? { name: seller.name, email: seller.email ?? null, agreementUrl: seller.agreementUrl ?? null } : null;
}

const LINK_KEYS = ['gettingStartedUrl', 'featureRequestsUrl', 'forumsUrl', 'helpCenterUrl', 'statusPageUrl'] as const;

/**
 * `GET /config/dashboard`: the server settings the dashboard needs before it can draw some
 * pages (today the map tile server). Unauthenticated and secret-free, like balena's `/config`,
 * whose shape stays as the SDK expects it; the dialect claims `/config` and `/config/vars`,
 * not this path.
 */
export async function dashboardConfigRoutes(
  app: FastifyInstance,
  opts: {
    map?: MapOptions;
    docsUrl?: string | undefined;
    captchaSiteKey?: string | undefined;
    requireEmailVerification?: boolean | undefined;
    billing?: boolean | undefined;
    saml?: boolean | undefined;
    links?: DashboardLinks | undefined;
    announcement?: AnnouncementConfig | undefined;
  },
): Promise<void> {
  const links = opts.links ?? {};
  const announcement = opts.announcement;
  const body = {
    mapTileUrl: opts.map?.tileUrl ?? null,
    mapAttribution: opts.map?.attribution ?? null,
    // Where the dashboard's documentation links go (FLOTILLA_DOCS_URL; default the guides
    // this server ships at /docs/), and whether billing is on (FLOTILLA_BILLING; seat prices,
    // plan limits and the billing pages apply only then).
    docsUrl: opts.docsUrl ?? '/docs/',
    billing: opts.billing === true,
    // Whether SAML single sign-on is supported (FLOTILLA_SAML, default on): the identity
    // provider pages and the SAML sign-in show only then (issue 20).
    saml: opts.saml !== false,
    // Sign-up captcha (FLOTILLA_CAPTCHA_SITE_KEY; null = the dashboard sends a dummy response)
    // and FLOTILLA_REQUIRE_EMAIL_VERIFICATION (issue 6).
    captchaSiteKey: opts.captchaSiteKey ?? null,
    requireEmailVerification: opts.requireEmailVerification ?? false,
    // The card form's publishable key when billing runs with the Stripe provider (issue 18
    // item 5; FLOTILLA_STRIPE_PUBLISHABLE_KEY), else null: payment is by invoice.
    stripePublishableKey: stripePublishableKey(app),
    stripeJsUrl: stripeJsUrl(app) ?? null,
    // Who bills (the service agreement link, contact sales, the bank-debit terms' name).
    billingSeller: billingSeller(app),
    // The header's help menu (issue 19, FLOTILLA_LINK_*): null = the entry is hidden. Docs is docsUrl.
    links: {
      gettingStartedUrl: links.gettingStartedUrl ?? null,
      featureRequestsUrl: links.featureRequestsUrl ?? null,
      forumsUrl: links.forumsUrl ?? null,
      helpCenterUrl: links.helpCenterUrl ?? null,
      statusPageUrl: links.statusPageUrl ?? null,
    },
    // The announcement banner (FLOTILLA_ANNOUNCEMENT_*); the dashboard shows it inside its window.
    announcement: announcement
      ? {
          text: announcement.text,
          from: announcement.from ? new Date(announcement.from).toISOString() : null,
          until: announcement.until ? new Date(announcement.until).toISOString() : null,
          url: announcement.url ?? null,
        }
      : null,
  };
  app.get(
    '/config/dashboard',
    {
      schema: {
        response: {
          200: {
            type: 'object',
            required: ['mapTileUrl', 'mapAttribution', 'docsUrl', 'billing', 'saml'],
            properties: {
              mapTileUrl: { type: ['string', 'null'] },
              mapAttribution: { type: ['string', 'null'] },
              docsUrl: { type: 'string' },
              billing: { type: 'boolean' },
              saml: { type: 'boolean' },
              captchaSiteKey: { type: ['string', 'null'] },
              requireEmailVerification: { type: 'boolean' },
              stripePublishableKey: { type: ['string', 'null'] },
              stripeJsUrl: { type: ['string', 'null'] },
              billingSeller: {
                type: ['object', 'null'],
                properties: { name: { type: 'string' }, email: { type: ['string', 'null'] }, agreementUrl: { type: ['string', 'null'] } },
              },
              links: {
                type: 'object',
                properties: Object.fromEntries(LINK_KEYS.map((k) => [k, { type: ['string', 'null'] }])),
              },
              announcement: {
                type: ['object', 'null'],
                properties: { text: { type: 'string' }, from: { type: ['string', 'null'] }, until: { type: ['string', 'null'] }, url: { type: ['string', 'null'] } },
              },
            },
          },
        },
      },
    },
    async (_request, reply) => reply.header('Cache-Control', 'no-cache').send(body),
  );
}
