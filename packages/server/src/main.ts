import { appendFileSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { ConfigError, loadConfig } from './infra/config/config.js';
import { PoolDb } from './infra/db/db.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './infra/db/embedded.js';
import { migrate } from './infra/db/migrate.js';
import { resolveJwtSecret } from './infra/auth/jwt-secret.js';
import { resolveSecretsBox } from './infra/crypto/secrets-key.js';
import { sealPlaintextTwoFactorSecrets } from './features/two-factor/index.js';
import { seedReferenceData } from './features/reference-data/index.js';
import { ensurePlatformAdmin } from './features/users/index.js';
import { buildApp } from './app.js';
import { DirectoryFileStore } from './infra/files/file-store.js';
import { createMailer, describeSmtpUrl } from './infra/mail/mailer.js';
import { WEB_DIST_DIR } from './paths.js';
import { RedisBus } from './infra/bus/redis.js';
import type { BillingConfig } from './infra/app/context.js';
import { loadPlansFile } from './features/billing/index.js';

const say = (msg: string) => process.stdout.write(`[flotilla] ${msg}\n`);

/**
 * How long the orderly part of a stop (draining requests, closing cloud links, stopping
 * jobs) may take before the server stops PostgreSQL and exits anyway.
 */
const SHUTDOWN_GRACE_MS = 20_000;

/**
 * Start-up details (PostgreSQL start, migrations) go to `<data dir>/logs/flotilla.log`, not the
 * terminal: the terminal shows the banner (which names the log directory).
 */
function startupLog(dataDir: string): { dir: string; write: (msg: string) => void } {
  const dir = resolve(dataDir, 'logs');
  const file = resolve(dir, 'flotilla.log');
  let ok = true;
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    ok = false;
  }
  return {
    dir,
    write: (msg) => {
      if (ok) {
        try {
          appendFileSync(file, `${new Date().toISOString()} ${msg}\n`);
          return;
        } catch {
          ok = false;
        }
      }
      say(msg);
    },
  };
}

/**
 * V8 lets the heap grow to up to four times what survived the last full collection before it
 * collects again. Under many slow concurrent requests that garbage, not live data, set the
 * server's peak memory (bench (e)); a factor of two keeps the peak down at the same
 * throughput. Not a cap: a larger live heap still grows. Node's own flag wins when given.
 */
if (!process.execArgv.some((a) => a.startsWith('--heap-growing-percent')) && !process.env.NODE_OPTIONS?.includes('--heap-growing-percent')) {
  setFlagsFromString('--heap-growing-percent=100');
}

/**
 * FLOTILLA_BILLING, FLOTILLA_PLANS_FILE (read and checked here, before anything starts: a bad
 * file stops the server naming the file and field), the manual provider's instructions and the
 * Stripe keys (docs/billing.md). Nothing here needs a secret: without Stripe keys the manual
 * provider runs.
 */
function billingConfig(config: ReturnType<typeof loadConfig>): BillingConfig {
  const enabled = config.FLOTILLA_BILLING === 'on';
  return {
    enabled,
    catalogue: enabled && config.FLOTILLA_PLANS_FILE !== undefined ? loadPlansFile(config.FLOTILLA_PLANS_FILE) : undefined,
    provider:
      config.FLOTILLA_STRIPE_SECRET_KEY !== undefined && config.FLOTILLA_STRIPE_PUBLISHABLE_KEY !== undefined
        ? {
            kind: 'stripe',
            secretKey: config.FLOTILLA_STRIPE_SECRET_KEY,
            publishableKey: config.FLOTILLA_STRIPE_PUBLISHABLE_KEY,
            apiUrl: config.FLOTILLA_STRIPE_API_URL,
            jsUrl: config.FLOTILLA_STRIPE_JS_URL,
            webhookSecret: config.FLOTILLA_STRIPE_WEBHOOK_SECRET,
          }
        : { kind: 'manual', instructions: config.FLOTILLA_BILLING_MANUAL_INSTRUCTIONS },
  };
}

/** Start-up phases with the time since the process started, for the log (a slow start says where). */
function timer(write: (msg: string) => void): (what: string) => void {
  return (what) => write(`${what} (${Math.round(performance.now())} ms after the process started)`);
}

async function main(): Promise<void> {
  const config = loadConfig();
  const billing = billingConfig(config);
  const details = startupLog(config.FLOTILLA_DATA_DIR);
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    details.write(`starting embedded PostgreSQL (data in ${config.FLOTILLA_DATA_DIR})`);
    embedded = await startEmbeddedPostgres(config.FLOTILLA_DATA_DIR, config.FLOTILLA_EMBEDDED_PG_PORT, details.write);
    details.write(`embedded PostgreSQL (pid ${embedded.pid}) listening on ${embedded.address}`);
    databaseUrl = embedded.url;
  }
  const db = new PoolDb(databaseUrl, { max: config.FLOTILLA_DB_POOL_MAX });
  const phase = timer(details.write);
  phase(embedded ? 'embedded PostgreSQL ready' : 'configuration read');
  await migrate(db, details.write);
  phase('migrations checked');
  await seedReferenceData(db);
  const adminNotice: string[] = [];
  await ensurePlatformAdmin(
    db,
    { email: config.FLOTILLA_ADMIN_EMAIL, password: config.FLOTILLA_ADMIN_PASSWORD },
    (lines) => adminNotice.push(...lines),
  );
  const jwtSecret = await resolveJwtSecret(db, config.FLOTILLA_JWT_SECRET);
  const secrets = await resolveSecretsBox(db, config.FLOTILLA_SECRETS_KEY, config.FLOTILLA_DATA_DIR);
  const sealed = await sealPlaintextTwoFactorSecrets(db, secrets);
  if (sealed > 0) say(`sealed the two-factor secrets of ${sealed} user(s) stored before sealing`);
  phase('reference data, administrator and keys checked');
  const mailer = createMailer(db, config);
  // Many processes behind one load balancer share actions, logs and cache invalidation
  // through Redis; one process keeps the bus in memory.
  let bus: RedisBus | undefined;
  if (config.REDIS_URL) {
    bus = new RedisBus(config.REDIS_URL, (err) => say(`redis: ${err instanceof Error ? err.message : String(err)}`));
    await bus.ready();
  }
  const app = await buildApp({
    db,
    jwtSecret,
    secrets,
    mailer,
    bus,
    jobs: true,
    files: { store: new DirectoryFileStore(resolve(config.FLOTILLA_DATA_DIR, 'files')), maxBytes: config.FLOTILLA_RELEASE_ASSET_MAX_BYTES },
    webDistDir: WEB_DIST_DIR,
    // Unset: registryHostOf derives it (external registry's host, else the public URL's).
    registryHost: config.FLOTILLA_REGISTRY_HOST,
    registry: {
      dir: resolve(config.FLOTILLA_DATA_DIR, 'registry'),
      externalUrl: config.FLOTILLA_REGISTRY_URL,
      service: config.FLOTILLA_REGISTRY_SERVICE,
      issuer: config.FLOTILLA_REGISTRY_ISSUER,
      tokenKeyPem: config.FLOTILLA_REGISTRY_TOKEN_KEY === undefined ? undefined : await readFile(config.FLOTILLA_REGISTRY_TOKEN_KEY, 'utf8'),
      uploadMaxAgeMs: config.FLOTILLA_REGISTRY_UPLOAD_MAX_AGE_HOURS * 3_600_000,
    },
    map: { tileUrl: config.FLOTILLA_MAP_TILE_URL, attribution: config.FLOTILLA_MAP_ATTRIBUTION },
    docsUrl: config.FLOTILLA_DOCS_URL,
    links: {
      gettingStartedUrl: config.FLOTILLA_LINK_GETTING_STARTED,
      featureRequestsUrl: config.FLOTILLA_LINK_FEATURE_REQUESTS,
      forumsUrl: config.FLOTILLA_LINK_FORUMS,
      helpCenterUrl: config.FLOTILLA_LINK_HELP_CENTER,
      statusPageUrl: config.FLOTILLA_LINK_STATUS_PAGE,
    },
    statusFeed: config.FLOTILLA_STATUS_FEED_URL ? { url: config.FLOTILLA_STATUS_FEED_URL } : undefined,
    announcement: config.FLOTILLA_ANNOUNCEMENT_TEXT
      ? { text: config.FLOTILLA_ANNOUNCEMENT_TEXT, from: config.FLOTILLA_ANNOUNCEMENT_FROM, until: config.FLOTILLA_ANNOUNCEMENT_UNTIL, url: config.FLOTILLA_ANNOUNCEMENT_URL }
      : undefined,
    logs: { retainLines: config.FLOTILLA_LOG_RETAIN_LINES, retainDays: config.FLOTILLA_LOG_RETAIN_DAYS },
    codeHost: { codeHostUrl: config.FLOTILLA_CODE_HOST_URL, rawUrl: config.FLOTILLA_CODE_HOST_RAW_URL },
    accounts: {
      captcha: { secret: config.FLOTILLA_CAPTCHA_SECRET, siteKey: config.FLOTILLA_CAPTCHA_SITE_KEY, verifyUrl: config.FLOTILLA_CAPTCHA_VERIFY_URL },
      requireEmailVerification: config.FLOTILLA_REQUIRE_EMAIL_VERIFICATION,
    },
    sshKeys: { keysUrl: config.FLOTILLA_SSH_KEYS_URL },
    staging: config.FLOTILLA_STAGING,
    samlEnabled: config.FLOTILLA_SAML === 'on',
    trustProxy: config.FLOTILLA_TRUST_PROXY,
    billing,
    support: {
      email: config.FLOTILLA_SUPPORT_EMAIL,
      zendesk:
        config.FLOTILLA_ZENDESK_URL && config.FLOTILLA_ZENDESK_EMAIL && config.FLOTILLA_ZENDESK_TOKEN
          ? { url: config.FLOTILLA_ZENDESK_URL, email: config.FLOTILLA_ZENDESK_EMAIL, token: config.FLOTILLA_ZENDESK_TOKEN, ssoSecret: config.FLOTILLA_ZENDESK_SSO_SECRET }
          : undefined,
    },
    socialLogin: { providers: config.FLOTILLA_OIDC_PROVIDERS, timeoutMs: config.FLOTILLA_OIDC_TIMEOUT_MS },
    logLevel: config.LOG_LEVEL,
  });

  phase('app built (routes, jobs)');
  // Ordered stop: app.close() stops accepting, drains requests, closes the cloud links (each
  // recording its disconnect) and stops the jobs; then mail, bus and pool; PostgreSQL last.
  // (PostgreSQL runs in its own process group, so a Ctrl-C reaches it only through here.)
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`${signal} received, shutting down`);
    const overdue = setTimeout(() => {
      say(`still stopping after ${SHUTDOWN_GRACE_MS / 1000} s; stopping PostgreSQL and exiting`);
      void (embedded?.stop() ?? Promise.resolve()).finally(() => process.exit(1));
    }, SHUTDOWN_GRACE_MS);
    overdue.unref();
    await app.close().catch((err: unknown) => say(`while stopping: ${err instanceof Error ? err.message : String(err)}`));
    mailer.close();
    await bus?.close().catch(() => undefined);
    await db.end().catch(() => undefined);
    if (embedded) {
      await embedded.stop().catch(() => undefined);
      say('embedded PostgreSQL stopped');
    }
    process.exit(0);
  };
  // The embedded PostgreSQL gone while the server runs (killed, crashed, out of memory): every
  // request would fail from now on. Exit non-zero instead, so a supervisor (systemd's
  // Restart=, a container's restart policy) or the user starts both again; the next start
  // recovers from the WAL (docs/crash-safety.md).
  void embedded?.exited.then(({ code, signal }) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`[flotilla] the embedded PostgreSQL stopped unexpectedly (${signal ?? `exit code ${code}`}); exiting — start Flotilla again to recover\n`);
    process.exit(1);
  });
  // An unhandled rejection still ends the process, as Node would, but says so in one line; when
  // it is a consequence of the embedded PostgreSQL's death (pg-boss failing to reach it may come
  // first), the handler above reports that instead: the PostgreSQL exit is awaited for a second.
  process.on('unhandledRejection', (err) => {
    if (stopping) return;
    const postgresGone = embedded ? Promise.race([embedded.exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 1_000))]) : Promise.resolve(false);
    void postgresGone.then((gone) => {
      if (gone || stopping) return;
      stopping = true;
      process.stderr.write(`[flotilla] unhandled error, exiting: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    });
  });
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  // A deep accept queue so bursts of thousands of connections queue instead of timing out.
  // Fastify logs one "Server listening" line per interface at info; the banner below says where.
  const level = app.log.level;
  if (level === 'info') app.log.level = 'warn';
  try {
    await app.listen({ port: config.PORT, host: config.HOST, backlog: 4096 });
  } finally {
    app.log.level = level;
  }
  phase('listening');
  const url = config.FLOTILLA_PUBLIC_URL;
  say('');
  say(`Flotilla is running: ${url}`);
  say(`  Sign up at ${url}/signup, or sign in at ${url}/login.`);
  for (const line of adminNotice) say(`  ${line}`);
  if (adminNotice.length === 0) say(`  Platform administrator: ${config.FLOTILLA_ADMIN_EMAIL} (password as set on the first start).`);
  if (config.SMTP_URL) say(`  Mail: sent through ${describeSmtpUrl(config.SMTP_URL)} from ${mailer.from}.`);
  else say(`  Mail: no SMTP_URL set; e-mails are kept in the outbox (platform administrators read them at ${url}/admin).`);
  say(`  Logs: ${details.dir}`);
  say(`  Bus: ${config.REDIS_URL ? 'Redis (REDIS_URL)' : 'in-process (one server process; set REDIS_URL to run several)'}.`);
  say('Press Ctrl-C to stop.');
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`[flotilla] failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
