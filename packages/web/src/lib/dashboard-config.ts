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
}

export interface BillingSeller {
  name: string;
  email: string | null;
  agreementUrl: string | null;
}

/** Before the answer (or when it fails): the built-in guides and no billing. */
export const DEFAULT_INSTALL_CONFIG: InstallConfig = { docsUrl: '/docs/', billing: false, stripePublishableKey: null, stripeJsUrl: null, billingSeller: null };

type InstallConfigBody = Partial<{
  docsUrl: string;
  billing: boolean;
  stripePublishableKey: string | null;
  stripeJsUrl: string | null;
  billingSeller: { name?: unknown; email?: unknown; agreementUrl?: unknown } | null;
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
  };
}

const installConfigQuery = { queryKey: ['config', 'dashboard', 'install'], queryFn: getInstallConfig, staleTime: Infinity, retry: 1 } as const;

export function useInstallConfig(): InstallConfig {
  return useQuery(installConfigQuery).data ?? DEFAULT_INSTALL_CONFIG;
}

/** The answer itself, for pages that must not decide before it arrives (billing on or off). */
export function useInstallConfigQuery() {
  return useQuery(installConfigQuery);
}
