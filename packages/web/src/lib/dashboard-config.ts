import { useQuery } from '@tanstack/react-query';
import { sdk } from './sdk';

/** What `GET /config/dashboard` tells the dashboard about this installation (the parts read through here). */
export interface InstallConfig {
  /** Where the documentation links go (FLOTILLA_DOCS_URL; default the server's own /docs/). */
  docsUrl: string;
  /** Whether billing exists; seat prices are shown only then. */
  billing: boolean;
  /**
   * The card payment provider's public key and where its browser library is served from
   * (Stripe; null: payment is by invoice, the manual provider). Both or neither.
   */
  stripePublishableKey: string | null;
  stripeJsUrl: string | null;
  /** The catalogue's seller (the operator): its name, sales contact and service agreement link. */
  billingSeller: BillingSeller | null;
  /** The help menu's links to the operator's pages (issue 19, FLOTILLA_LINK_*); null = hidden. */
  links: HelpLinks;
  /** The announcement banner (FLOTILLA_ANNOUNCEMENT_*): text, window (ISO instants) and link. */
  announcement: { text: string; from: string | null; until: string | null; url: string | null } | null;
  /** Whether SAML single sign-on is supported (spec 1 §2): without it the identity-provider pages are not found. */
  saml: boolean;
  /** The social sign-in providers (issue 20, FLOTILLA_OIDC_PROVIDERS): the login buttons, the links in preferences. */
  socialProviders: SocialProvider[];
}

/** A configured social sign-in provider: the /auth/{id} segment and its display name. */
export interface SocialProvider {
  id: string;
  name: string;
}

export interface HelpLinks {
  gettingStartedUrl: string | null;
  featureRequestsUrl: string | null;
  forumsUrl: string | null;
  helpCenterUrl: string | null;
  statusPageUrl: string | null;
}

const NO_LINKS: HelpLinks = { gettingStartedUrl: null, featureRequestsUrl: null, forumsUrl: null, helpCenterUrl: null, statusPageUrl: null };

export interface BillingSeller {
  name: string;
  email: string | null;
  agreementUrl: string | null;
}

/** Before the answer (or when it fails): the built-in guides and no billing. */
export const DEFAULT_INSTALL_CONFIG: InstallConfig = {
  docsUrl: '/docs/',
  billing: false,
  stripePublishableKey: null,
  stripeJsUrl: null,
  billingSeller: null,
  links: NO_LINKS,
  announcement: null,
  socialProviders: [],
  saml: false,
};

type InstallConfigBody = Partial<{
  docsUrl: string;
  billing: boolean;
  stripePublishableKey: string | null;
  stripeJsUrl: string | null;
  billingSeller: { name?: unknown; email?: unknown; agreementUrl?: unknown } | null;
  links: Record<string, unknown> | null;
  announcement: { text?: unknown; from?: unknown; until?: unknown; url?: unknown } | null;
  socialProviders: { id?: unknown; name?: unknown }[];
  saml: boolean;
}>;

async function getInstallConfig(): Promise<InstallConfig> {
  const { body } = await sdk.request.send<InstallConfigBody>({ method: 'GET', baseUrl: window.location.origin, url: '/config/dashboard', sendToken: false });
  const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : null);
  return {
    docsUrl: body.docsUrl ?? DEFAULT_INSTALL_CONFIG.docsUrl,
    billing: body.billing === true,
    stripePublishableKey: text(body.stripePublishableKey),
    stripeJsUrl: text(body.stripeJsUrl),
    billingSeller:
      body.billingSeller && text(body.billingSeller.name)
        ? { name: text(body.billingSeller.name)!, email: text(body.billingSeller.email), agreementUrl: text(body.billingSeller.agreementUrl) }
        : null,
    // Only http(s) addresses become links.
    links: {
      gettingStartedUrl: webUrl(body.links?.gettingStartedUrl),
      featureRequestsUrl: webUrl(body.links?.featureRequestsUrl),
      forumsUrl: webUrl(body.links?.forumsUrl),
      helpCenterUrl: webUrl(body.links?.helpCenterUrl),
      statusPageUrl: webUrl(body.links?.statusPageUrl),
    },
    announcement:
      body.announcement && text(body.announcement.text)
        ? { text: text(body.announcement.text)!, from: text(body.announcement.from), until: text(body.announcement.until), url: webUrl(body.announcement.url) }
        : null,
    socialProviders: (Array.isArray(body.socialProviders) ? body.socialProviders : []).flatMap((p) =>
      typeof p?.id === 'string' && /^[a-z0-9-]{1,32}$/.test(p.id) && text(p.name) ? [{ id: p.id, name: text(p.name)! }] : [],
    ),
    // A server that does not say (before FLOTILLA_SAML existed) supports SAML.
    saml: body.saml !== false,
  };
}

function webUrl(value: unknown): string | null {
  return typeof value === 'string' && /^https?:\/\/\S+$/i.test(value) ? value : null;
}

const installConfigQuery = { queryKey: ['config', 'dashboard', 'install'], queryFn: getInstallConfig, staleTime: Infinity, retry: 1 } as const;

export function useInstallConfig(): InstallConfig {
  return useQuery(installConfigQuery).data ?? DEFAULT_INSTALL_CONFIG;
}

/** The answer itself, for pages that must not decide before it arrives (billing on or off). */
export function useInstallConfigQuery() {
  return useQuery(installConfigQuery);
}

/** The configured social sign-in providers ([] when none; the query's state for a page that waits for it). */
export function useSocialProviders() {
  return useQuery({ ...installConfigQuery, select: (config: InstallConfig) => config.socialProviders });
}
