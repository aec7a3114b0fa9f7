import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Catalogue, ResourceName } from '@flotilla/model';
import type { ApiKeyChanges } from '../auth/api-key-cache.js';
import type { Authenticator } from '../auth/authenticate.js';
import type { Bus } from '../bus/bus.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Db } from '../db/db.js';
import type { Mailer } from '../mail/mailer.js';
import type { Hook, HookArgs, RuleRegistry, WriteMethod } from '../odata/hooks.js';

/**
 * The app context: everything that belongs to one running app (one `buildApp`), in one
 * value. buildApp makes it and decorates the Fastify instance with it (`app.context`); the
 * data API engine hands it to every business rule (`HookArgs.app`). Features keep no state
 * of their own in module scope: what must outlive a request lives here, or in a value a
 * feature's `setup` makes for its app and closes over. Two apps in one process (tests,
 * embedding) thus share nothing but immutable code and pure compile caches.
 */
export interface AppContext {
  /** The pool (a rule's own transaction is `HookArgs.tx`). */
  readonly db: Db;
  /** Pub/sub across server processes (infra/bus). */
  readonly bus: Bus;
  /** Outgoing e-mail and public links (infra/mail). */
  readonly mailer: Mailer;
  /** The app's one clock (tests move it): TOTP, re-verification window, codes and tokens, sweeps. */
  readonly clock: Clock;
  /** What the deployment configured (main.ts reads it from the environment). */
  readonly config: AppConfig;
  /** The app's business rules (data API hooks), filled by the features' `setup`. */
  readonly rules: Rules;
  /** Resolves callers (sessions, API keys) and caches them. */
  readonly authenticator: Authenticator;
  /** Announces API key changes to this app's cache and, through the bus, to every process. */
  readonly apiKeyChanges: ApiKeyChanges;
  /** Seals stored secrets (TOTP). */
  readonly secrets: SecretBox;
  readonly log: FastifyBaseLogger;
}

/** Now, in milliseconds since the epoch (the shape of `Date.now`). */
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();

/** An app's business rules, and one rule as a feature writes it. */
export type Rules = RuleRegistry<AppContext>;
export type Rule<R extends ResourceName = ResourceName, M extends WriteMethod = WriteMethod, A extends string = never> = Hook<AppContext, R, M, A>;
export type RuleArgs = HookArgs<AppContext>;

/**
 * A feature (features/<name>/index.ts exports one): `setup` registers its rules on the
 * app's registry and its routes on the app, reading what it needs from `app.context`.
 */
export interface Feature {
  setup(app: FastifyInstance, rules: Rules): void | Promise<void>;
}

/** The configurable values of an app (plain data; the objects it runs with are in AppOptions). */
export interface AppConfig {
  jwtSecret: string;
  /** Built dashboard to serve; omitted in API-only tests. */
  webDistDir?: string | undefined;
  /**
   * Registry host for image locations and registry tokens (main.ts: FLOTILLA_REGISTRY_URL's
   * host, else FLOTILLA_REGISTRY_HOST); default the host:port of the public URL.
   */
  registryHost?: string | undefined;
  /** The container registry (features/registry; main.ts: FLOTILLA_REGISTRY_*). */
  registry?: RegistryConfig | undefined;
  /**
   * The code host /deploy reads balena.yml contracts from (main.ts: FLOTILLA_CODE_HOST_URL and
   * FLOTILLA_CODE_HOST_RAW_URL). Default: GitHub, 10 s timeout; tests shorten the timeout.
   */
  codeHost?: { codeHostUrl?: string; rawUrl?: string; timeoutMs?: number } | undefined;
  /** Map tiles for the dashboard (FLOTILLA_MAP_TILE_URL, FLOTILLA_MAP_ATTRIBUTION); default none. */
  map?: { tileUrl?: string; attribution?: string } | undefined;
  /** The documentation the dashboard links to (FLOTILLA_DOCS_URL); default Flotilla's own guides at /docs/. */
  docsUrl?: string | undefined;
  /** The header's help menu links (issue 19; main.ts: FLOTILLA_LINK_*); each one unset is hidden. */
  links?: DashboardLinks | undefined;
  /** The status-page feed proxied as GET /config/status (issue 19; FLOTILLA_STATUS_FEED_URL); unset = no indicator. */
  statusFeed?: StatusFeedConfig | undefined;
  /** The announcement banner (issue 19; FLOTILLA_ANNOUNCEMENT_*); unset = none. */
  announcement?: AnnouncementConfig | undefined;
  /** Sign-up captcha and required e-mail verification (main.ts: FLOTILLA_CAPTCHA_*, FLOTILLA_REQUIRE_EMAIL_VERIFICATION). */
  accounts?: AccountConfig | undefined;
  /** Where SSH keys are imported from (main.ts: FLOTILLA_SSH_KEYS_URL); default GitHub, 10 s timeout. */
  sshKeys?: { keysUrl?: string; timeoutMs?: number } | undefined;
  /** A staging deployment (FLOTILLA_STAGING): the dashboard offers navigation stripes. */
  staging?: boolean | undefined;
  /** Device actions: how long to wait for the device's answer (default 30 s). */
  actionTimeoutMs?: number | undefined;
  /** Health checks and diagnose: how long the device has to answer (default ACTION_RUN_LIMITS.timeoutMs; tests shorten it). */
  diagnosticsTimeoutMs?: number | undefined;
  /** Cloud link liveness ping interval (default 30 s). */
  cloudLinkPingIntervalMs?: number | undefined;
  /** Device logs (features/device-logs; main.ts: FLOTILLA_LOG_RETAIN_*); every field has a default. */
  logs?: DeviceLogsConfig | undefined;
  /** Billing (issue 18, docs/billing.md; main.ts: FLOTILLA_BILLING, FLOTILLA_PLANS_FILE, FLOTILLA_STRIPE_*). Default off. */
  billing?: BillingConfig | undefined;
  /** The helpdesk (issue 19; main.ts: FLOTILLA_SUPPORT_EMAIL, FLOTILLA_ZENDESK_*). Default: tickets kept and listed in /admin only. */
  support?: SupportConfig | undefined;
  /**
   * SAML single sign-on and identity providers (issue 20; main.ts: FLOTILLA_SAML). Default on;
   * `false` hides them from the dashboard and refuses identity-provider writes and SAML sign-in.
   */
  samlEnabled?: boolean | undefined;
}

/** Where support tickets go besides the database (features/support, docs/support.md). */
export interface SupportConfig {
  /** FLOTILLA_SUPPORT_EMAIL: the inbox each new ticket is mailed to; unset = no such mail. */
  email?: string | undefined;
  /** The optional Zendesk bridge (FLOTILLA_ZENDESK_URL, _EMAIL, _TOKEN, _SSO_SECRET). */
  zendesk?: ZendeskConfig | undefined;
}
export interface ZendeskConfig {
  /** The Zendesk account's base URL, e.g. `https://example.zendesk.com`. */
  url: string;
  /** The agent the API token belongs to, and the token (Zendesk's `email/token:TOKEN` basic auth). */
  email: string;
  token: string;
  /** The help center's JWT single sign-on shared secret; unset = no portal sign-in. */
  ssoSecret?: string | undefined;
  /** Each call's timeout (default 10 s; tests shorten it). */
  timeoutMs?: number | undefined;
}

/** The operator's own pages the help menu links to (http(s) URLs). */
export interface DashboardLinks {
  gettingStartedUrl?: string | undefined;
  featureRequestsUrl?: string | undefined;
  forumsUrl?: string | undefined;
  helpCenterUrl?: string | undefined;
  statusPageUrl?: string | undefined;
}

/** A Statuspage-compatible summary feed (e.g. https://status.example.com/api/v2/summary.json). */
export interface StatusFeedConfig {
  url: string;
  /** Per-fetch timeout (default 5 s; tests shorten it). */
  timeoutMs?: number | undefined;
  /** How long one answer is reused (default 30 s). */
  cacheMs?: number | undefined;
  /** A larger answer is not a summary: the status is unknown (default 256 KiB). */
  maxBytes?: number | undefined;
}

/** An announcement shown from `from` until `until` (ISO instants; either may be open). */
export interface AnnouncementConfig {
  text: string;
  from?: string | undefined;
  until?: string | undefined;
  url?: string | undefined;
}

/**
 * Billing's settings. Off (the default, a single self-hosted organization): nothing is limited,
 * no invoices are written, and the billing pages say billing is off. On: the catalogue's plans,
 * limits, usage, invoices and the payment provider apply.
 */
export interface BillingConfig {
  /** FLOTILLA_BILLING=on. */
  enabled: boolean;
  /** FLOTILLA_PLANS_FILE's catalogue; default the model's DEFAULT_CATALOGUE. */
  catalogue?: Catalogue | undefined;
  /**
   * The payment provider (features/billing/payments): `manual` (bank transfer / purchase order;
   * a platform administrator marks invoices paid) is the default; `stripe` when its keys are set.
   */
  provider?: ManualProviderConfig | StripeProviderConfig | undefined;
}
export interface ManualProviderConfig {
  kind: 'manual';
  /** The payment instructions printed on invoices (bank details); FLOTILLA_BILLING_MANUAL_INSTRUCTIONS. */
  instructions?: string | undefined;
}
export interface StripeProviderConfig {
  kind: 'stripe';
  /** FLOTILLA_STRIPE_SECRET_KEY / FLOTILLA_STRIPE_PUBLISHABLE_KEY. */
  secretKey: string;
  publishableKey: string;
  /** FLOTILLA_STRIPE_API_URL: default https://api.stripe.com (tests: a local stand-in). */
  apiUrl?: string | undefined;
  /** Per-request timeout (default 10 s). */
  timeoutMs?: number | undefined;
  /**
   * FLOTILLA_STRIPE_JS_URL: where the dashboard loads Stripe.js from (e.g.
   * https://js.stripe.com/v3/); its origin is allowed by the dashboard's CSP. Unset: the card
   * form says 'error loading billing api'.
   */
  jsUrl?: string | undefined;
  /**
   * FLOTILLA_STRIPE_WEBHOOK_SECRET: the signing secret of the webhook endpoint
   * (`POST /billing/v1/stripe/webhook`). Unset: the endpoint answers 503.
   */
  webhookSecret?: string | undefined;
}

/** Device logs' settings (issue 15; defaults in the model's LOG_LIMITS). */
export interface DeviceLogsConfig {
  /** FLOTILLA_LOG_RETAIN_LINES: the last N lines kept per device (default 1000). */
  retainLines?: number | undefined;
  /** FLOTILLA_LOG_RETAIN_DAYS: lines older than this are dropped (default 30). */
  retainDays?: number | undefined;
  /** `?stream=1` keep-alive interval (default 58 s; tests shorten it). */
  keepAliveMs?: number | undefined;
  /** A log stream idle this long is ended (default 60 s; tests shorten it). */
  streamIdleMs?: number | undefined;
  /** How long lines wait in the write buffer (default 50 ms). */
  flushIntervalMs?: number | undefined;
}

/** The container registry's settings (issue 14); every field has a default. */
export interface RegistryConfig {
  /** Blob store and generated token key (main.ts: `<FLOTILLA_DATA_DIR>/registry`); default a temporary directory removed on close. */
  dir?: string | undefined;
  /** FLOTILLA_REGISTRY_URL: an external Distribution registry serves images; /v2 here answers 404. */
  externalUrl?: string | undefined;
  /** FLOTILLA_REGISTRY_SERVICE: the tokens' audience; default the registry host. */
  service?: string | undefined;
  /** FLOTILLA_REGISTRY_ISSUER: the tokens' issuer; default `flotilla`. */
  issuer?: string | undefined;
  /** FLOTILLA_REGISTRY_TOKEN_KEY's PEM (EC P-256 or RSA private key); default a key generated once in `dir`. */
  tokenKeyPem?: string | undefined;
  /** FLOTILLA_REGISTRY_UPLOAD_MAX_AGE_HOURS: unfinished uploads older than this are dropped (default 24 h). */
  uploadMaxAgeMs?: number | undefined;
  /** Unreferenced blobs and repositories of images in no release are kept this long (default 1 h). */
  garbageGraceMs?: number | undefined;
  /** Largest blob (default 16 GiB). */
  blobMaxBytes?: number | undefined;
}

/** Settings of sign-up, e-mail verification and password reset (issue 6 items 2–3). */
export interface AccountConfig {
  captcha?: CaptchaConfig;
  /** FLOTILLA_REQUIRE_EMAIL_VERIFICATION: unverified users may not use the data API. */
  requireEmailVerification?: boolean;
}

export interface CaptchaConfig {
  /** FLOTILLA_CAPTCHA_SECRET; unset = a dummy response passes (spec 1 §5). */
  secret?: string | undefined;
  /** FLOTILLA_CAPTCHA_SITE_KEY, handed to the dashboard. */
  siteKey?: string | undefined;
  /** FLOTILLA_CAPTCHA_VERIFY_URL (reCAPTCHA siteverify protocol). */
  verifyUrl?: string | undefined;
  /** How long to wait for the verifier (default 10 s). */
  timeoutMs?: number | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app context (infra/app/context.ts): one per buildApp. */
    context: AppContext;
  }
}
