import { z } from 'zod';
import { isIP } from 'node:net';
import { mapTileSource } from './map-tiles.js';

/**
 * FLOTILLA_TRUST_PROXY: empty, `false` or `0` = trust no proxy; a whole number = that many
 * hops; otherwise a comma list of addresses or CIDR ranges (IPv4 or IPv6) of the proxies.
 */
export function parseTrustProxy(value: string | undefined): number | string[] | undefined | Error {
  const v = value?.trim() ?? '';
  if (v === '' || v === 'false' || v === '0') return undefined;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    return hops <= 100 ? hops : new Error('must be a hop count up to 100, or a list of addresses/CIDRs');
  }
  const entries = v.split(',').map((e) => e.trim()).filter((e) => e !== '');
  for (const e of entries) {
    const [addr, bits, extra] = e.split('/');
    const family = isIP(addr ?? '');
    const maxBits = family === 6 ? 128 : 32;
    const okBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !okBits || extra !== undefined) return new Error(`"${e}" is not an address or CIDR range (use a hop count or a comma list such as 10.0.0.1,192.168.0.0/16)`);
  }
  return entries;
}

/**
 * Every environment variable the server reads, validated once at start-up. A bad
 * configuration fails with one error that lists every bad variable. `.env.example`
 * documents each of them.
 */
const port = z.coerce.number().int().min(1).max(65535);
const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .url()
    .refine((v) => protocols.some((p) => v.startsWith(p)), `must start with ${protocols.join(' or ')}`)
    .optional();

/** An instant such as 2026-12-01T09:00:00Z (a date alone is midnight UTC). */
const isoInstant = z
  .string()
  .max(40)
  .refine((v) => /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 date or date-time such as 2026-12-01T09:00:00Z')
  .optional();

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: port.default(8080),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATABASE_URL: optionalUrl(['postgres://', 'postgresql://']),
    FLOTILLA_DATA_DIR: z.string().min(1).default('./data'),
    // Unset: the embedded PostgreSQL listens on a Unix socket in FLOTILLA_DATA_DIR (no TCP port).
    FLOTILLA_EMBEDDED_PG_PORT: port.optional(),
    FLOTILLA_DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    FLOTILLA_PUBLIC_URL: optionalUrl(['http://', 'https://']),
    FLOTILLA_ADMIN_EMAIL: z.string().email().default('admin@flotilla.local'),
    FLOTILLA_ADMIN_PASSWORD: z.string().min(8).max(64).optional(),
    FLOTILLA_JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    // Seals stored secrets (TOTP); without it, a key file in FLOTILLA_DATA_DIR (one server only).
    FLOTILLA_SECRETS_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
    REDIS_URL: optionalUrl(['redis://', 'rediss://']),
    // Outgoing mail (smtp://user:pass@host:587 or smtps://…); without it e-mails go to the outbox table.
    SMTP_URL: optionalUrl(['smtp://', 'smtps://']).refine((v) => v === undefined || !URL.canParse(v) || new URL(v).hostname !== '', 'must name a host'),
    FLOTILLA_MAIL_FROM: z
      .string()
      .max(255)
      .refine((v) => /^[^\r\n]*@[^\r\n]+$/.test(v), 'must be an address such as "Flotilla <no-reply@example.com>"')
      .default('Flotilla <no-reply@localhost>'),
    // Deploy-from-URL (spec 2 §2 /deploy): repository URLs must be on FLOTILLA_CODE_HOST_URL;
    // their balena.yml is read from FLOTILLA_CODE_HOST_RAW_URL/<owner>/<repo>/HEAD/balena.yml.
    FLOTILLA_CODE_HOST_URL: optionalUrl(['http://', 'https://']).default('https://github.com'),
    FLOTILLA_CODE_HOST_RAW_URL: optionalUrl(['http://', 'https://']).default('https://raw.githubusercontent.com'),
    // Preferences → SSH keys → import: keys are read from FLOTILLA_SSH_KEYS_URL/<username>.keys
    // (GitHub's format); default FLOTILLA_CODE_HOST_URL.
    FLOTILLA_SSH_KEYS_URL: optionalUrl(['http://', 'https://']),
    // A staging deployment: the dashboard offers the navigation stripes preference (spec 1 §2).
    FLOTILLA_STAGING: z
      .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
      .default('false')
      .transform((v) => v === 'true' || v === '1'),
    // Registry host named in image locations (`<host>/v2/<hex>`); default the host:port of FLOTILLA_PUBLIC_URL.
    FLOTILLA_REGISTRY_HOST: z.string().min(1).max(200).regex(/^[A-Za-z0-9.:-]+$/, 'must be a host name, optionally with :port').optional(),
    // An external Distribution registry trusting Flotilla's tokens (docs/registry.md); unset = the embedded one.
    FLOTILLA_REGISTRY_URL: optionalUrl(['http://', 'https://']).refine((v) => v === undefined || !URL.canParse(v) || new URL(v).pathname === '/', 'must be http(s)://host[:port] without a path'),
    // Token signing key and certificate (PEM files); unset key = one generated in FLOTILLA_DATA_DIR/registry.
    FLOTILLA_REGISTRY_TOKEN_KEY: z.string().min(1).max(4096).optional(),
    FLOTILLA_REGISTRY_TOKEN_CERT: z.string().min(1).max(4096).optional(),
    FLOTILLA_REGISTRY_SERVICE: z.string().min(1).max(255).optional(),
    FLOTILLA_REGISTRY_ISSUER: z.string().min(1).max(255).default('flotilla'),
    FLOTILLA_REGISTRY_UPLOAD_MAX_AGE_HOURS: z.coerce.number().positive().max(24 * 365).default(24),
    // Map tiles for the dashboard's maps (Leaflet URL template); unset = no tiles, the maps
    // show device positions on a plain background (works with no outside network).
    FLOTILLA_MAP_TILE_URL: z
      .string()
      .max(500)
      .refine((v) => mapTileSource(v) !== null, 'must be an http(s) URL template such as https://tiles.example.org/{z}/{x}/{y}.png')
      .optional(),
    // Attribution text shown on the map (the tile provider's licence usually requires it).
    FLOTILLA_MAP_ATTRIBUTION: z.string().max(300).optional(),
    // The documentation the dashboard links to; unset = the guides served at /docs/ (docs/guide).
    FLOTILLA_DOCS_URL: z
      .string()
      .max(500)
      .regex(/^(https?:\/\/[^\s]+|\/[^\s]*)$/, 'must be an http(s) URL or a path such as /docs/')
      .optional(),
    // The header's help menu (spec 3 §2 Support): links to the operator's own pages, each
    // hidden while unset (issue 19). Opened in a new tab.
    FLOTILLA_LINK_GETTING_STARTED: optionalUrl(['http://', 'https://']),
    FLOTILLA_LINK_FEATURE_REQUESTS: optionalUrl(['http://', 'https://']),
    FLOTILLA_LINK_FORUMS: optionalUrl(['http://', 'https://']),
    FLOTILLA_LINK_HELP_CENTER: optionalUrl(['http://', 'https://']),
    FLOTILLA_LINK_STATUS_PAGE: optionalUrl(['http://', 'https://']),
    // A Statuspage-compatible summary (…/api/v2/summary.json) the server proxies as GET
    // /config/status for the header's status indicator; unset = no indicator.
    FLOTILLA_STATUS_FEED_URL: optionalUrl(['http://', 'https://']),
    // An announcement banner (spec 3 §4 Other banners): its text, shown from FROM until UNTIL
    // (ISO 8601 instants, each optional), with an optional "Learn more" link.
    FLOTILLA_ANNOUNCEMENT_TEXT: z.string().max(500).optional(),
    FLOTILLA_ANNOUNCEMENT_FROM: isoInstant,
    FLOTILLA_ANNOUNCEMENT_UNTIL: isoInstant,
    FLOTILLA_ANNOUNCEMENT_URL: optionalUrl(['http://', 'https://']),
    // Sign-up captcha (spec 1 §5): a reCAPTCHA-compatible verifier. Without a secret a dummy
    // response passes; the site key is handed to the dashboard (GET /config/dashboard).
    FLOTILLA_CAPTCHA_SECRET: z.string().min(1).max(500).optional(),
    FLOTILLA_CAPTCHA_SITE_KEY: z.string().min(1).max(500).optional(),
    FLOTILLA_CAPTCHA_VERIFY_URL: optionalUrl(['http://', 'https://']).default('https://www.google.com/recaptcha/api/siteverify'),
    // Unverified users may not use the data API (spec 1 §2 guards, §4 must-verify).
    FLOTILLA_REQUIRE_EMAIL_VERIFICATION: z
      .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
      .default('false')
      .transform((v) => v === 'true' || v === '1'),
    // Which proxies' X-Forwarded-* headers to believe: unset/false = none (the socket's peer is
    // the client); a hop count (1 = the nearest proxy); or a comma list of addresses/CIDRs.
    FLOTILLA_TRUST_PROXY: z
      .string()
      .optional()
      .transform((v, ctx) => {
        const parsed = parseTrustProxy(v);
        if (parsed instanceof Error) {
          ctx.addIssue({ code: 'custom', message: parsed.message });
          return z.NEVER;
        }
        return parsed;
      }),
    // Largest file one release asset may hold, in bytes (default 1 GiB); files are kept in FLOTILLA_DATA_DIR/files.
    FLOTILLA_RELEASE_ASSET_MAX_BYTES: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(1024 * 1024 * 1024),
    // Device logs kept per device: the last N lines and D days (docs/logs.md).
    FLOTILLA_LOG_RETAIN_LINES: z.coerce.number().int().min(1).max(100_000).default(1000),
    FLOTILLA_LOG_RETAIN_DAYS: z.coerce.number().positive().max(3650).default(30),
    // SAML single sign-on (issue 20, spec 1 §2): identity providers, their dashboard pages and
    // sign-in through them; `off` hides them (GET /config/dashboard `saml`) and refuses their writes.
    FLOTILLA_SAML: z.enum(['on', 'off'], { message: 'must be on or off' }).default('on'),
    // Billing (issue 18, docs/billing.md): `on` turns on plans, limits, invoices and payments.
    FLOTILLA_BILLING: z.enum(['on', 'off'], { message: 'must be on or off' }).default('off'),
    // The operator's catalogue (JSON of the model's Catalogue shape); unset = DEFAULT_CATALOGUE.
    FLOTILLA_PLANS_FILE: z.string().min(1).max(4096).optional(),
    // The manual provider's payment instructions printed on invoices (bank details).
    FLOTILLA_BILLING_MANUAL_INSTRUCTIONS: z.string().max(2000).optional(),
    // Stripe (both keys turn the Stripe provider on; FLOTILLA_STRIPE_API_URL: a stand-in for tests).
    FLOTILLA_STRIPE_SECRET_KEY: z.string().min(1).max(500).optional(),
    FLOTILLA_STRIPE_PUBLISHABLE_KEY: z.string().min(1).max(500).optional(),
    FLOTILLA_STRIPE_API_URL: optionalUrl(['http://', 'https://']),
    // Where the dashboard loads Stripe.js from (its origin joins the dashboard's CSP).
    FLOTILLA_STRIPE_JS_URL: optionalUrl(['http://', 'https://']),
    // The signing secret of the Stripe webhook endpoint (POST /billing/v1/stripe/webhook, `whsec_…`).
    FLOTILLA_STRIPE_WEBHOOK_SECRET: z.string().min(1).max(500).optional(),
    // The helpdesk (issue 19, docs/support.md): the inbox each new support ticket is mailed to;
    // unset = tickets are stored and listed for support agents in /admin only.
    FLOTILLA_SUPPORT_EMAIL: z.string().max(254).email('must be an e-mail address').optional(),
    // The optional Zendesk bridge: the account URL, the API agent's e-mail and API token (all
    // three), and the help center's JWT single sign-on shared secret (GET /zendesk/v1/login).
    FLOTILLA_ZENDESK_URL: optionalUrl(['https://', 'http://']),
    FLOTILLA_ZENDESK_EMAIL: z.string().max(254).email('must be an e-mail address').optional(),
    FLOTILLA_ZENDESK_TOKEN: z.string().min(1).max(500).optional(),
    FLOTILLA_ZENDESK_SSO_SECRET: z.string().min(1).max(500).optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .refine((c) => c.FLOTILLA_REGISTRY_URL === undefined || c.FLOTILLA_REGISTRY_TOKEN_KEY !== undefined, {
    message: 'an external registry needs FLOTILLA_REGISTRY_TOKEN_KEY (and its certificate in the registry\'s rootcertbundle)',
    path: ['FLOTILLA_REGISTRY_TOKEN_KEY'],
  })
  .refine((c) => (c.FLOTILLA_STRIPE_SECRET_KEY === undefined) === (c.FLOTILLA_STRIPE_PUBLISHABLE_KEY === undefined), {
    message: 'Stripe needs both FLOTILLA_STRIPE_SECRET_KEY and FLOTILLA_STRIPE_PUBLISHABLE_KEY',
    path: ['FLOTILLA_STRIPE_PUBLISHABLE_KEY'],
  })
  .refine((c) => c.FLOTILLA_STRIPE_WEBHOOK_SECRET === undefined || c.FLOTILLA_STRIPE_SECRET_KEY !== undefined, {
    message: 'a Stripe webhook secret needs the Stripe keys (FLOTILLA_STRIPE_SECRET_KEY and FLOTILLA_STRIPE_PUBLISHABLE_KEY)',
    path: ['FLOTILLA_STRIPE_WEBHOOK_SECRET'],
  })
  .refine(
    (c) => [c.FLOTILLA_ZENDESK_URL, c.FLOTILLA_ZENDESK_EMAIL, c.FLOTILLA_ZENDESK_TOKEN].every((v) => v === undefined) || [c.FLOTILLA_ZENDESK_URL, c.FLOTILLA_ZENDESK_EMAIL, c.FLOTILLA_ZENDESK_TOKEN].every((v) => v !== undefined),
    { message: 'the Zendesk bridge needs FLOTILLA_ZENDESK_URL, FLOTILLA_ZENDESK_EMAIL and FLOTILLA_ZENDESK_TOKEN together', path: ['FLOTILLA_ZENDESK_URL'] },
  )
  .refine((c) => c.FLOTILLA_ZENDESK_SSO_SECRET === undefined || c.FLOTILLA_ZENDESK_URL !== undefined, {
    message: 'FLOTILLA_ZENDESK_SSO_SECRET needs the Zendesk bridge (FLOTILLA_ZENDESK_URL, _EMAIL, _TOKEN)',
    path: ['FLOTILLA_ZENDESK_SSO_SECRET'],
  })
  .refine((c) => c.FLOTILLA_ANNOUNCEMENT_FROM === undefined || c.FLOTILLA_ANNOUNCEMENT_UNTIL === undefined || Date.parse(c.FLOTILLA_ANNOUNCEMENT_FROM) < Date.parse(c.FLOTILLA_ANNOUNCEMENT_UNTIL), {
    message: 'must be later than FLOTILLA_ANNOUNCEMENT_FROM',
    path: ['FLOTILLA_ANNOUNCEMENT_UNTIL'],
  })
  .transform((c) => ({
    ...c,
    FLOTILLA_PUBLIC_URL: c.FLOTILLA_PUBLIC_URL ?? `http://localhost:${c.PORT}`,
    FLOTILLA_SSH_KEYS_URL: c.FLOTILLA_SSH_KEYS_URL ?? c.FLOTILLA_CODE_HOST_URL,
  }));

export type Config = z.output<typeof schema>;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings count as unset, as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  throw new ConfigError(`Invalid configuration (see .env.example):\n${lines.join('\n')}`);
}
