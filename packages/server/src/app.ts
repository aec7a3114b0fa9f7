import Fastify, { type FastifyInstance } from 'fastify';
import { REQUEST_BODY_LIMIT_BYTES } from '@flotilla/model';
import { PoolDb, type Db } from './infra/db/db.js';
import { Authenticator } from './infra/auth/authenticate.js';
import { useApiKeyBus } from './infra/auth/api-key-cache.js';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandler } from './infra/http/errors.js';
import { installCompression } from './infra/http/compression.js';
import { installInputGuard } from './infra/http/input-guard.js';
import { routeSchemaProblems, type RouteEntry } from './infra/http/route-schemas.js';
import { installSecurityHeaders } from './infra/http/security-headers.js';
import { installDbScope } from './infra/http/db-scope.js';
import { UnauthorizedError } from './infra/errors.js';
import { SecretBox } from './infra/crypto/secret-box.js';
import './infra/http/actor.js';
import { dataApiRoutes } from './infra/odata/routes.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RELEASE_ASSET_MAX_BYTES } from '@flotilla/model';
import { DirectoryFileStore, type FileStore } from './infra/files/file-store.js';
import { fileGarbageJob } from './infra/files/garbage.js';
import { fileRoutes } from './infra/files/routes.js';
import { LinkSigner } from './infra/files/signed-links.js';
import { WebResources } from './infra/files/web-resources.js';
import { authRoutes } from './features/auth/auth.routes.js';
import { twoFactorRoutes } from './features/two-factor/two-factor.routes.js';
import { sessionRoutes } from './features/auth/session.routes.js';
import { accountRoutes } from './features/account/account.routes.js';
import { oauthRoutes } from './features/oauth/oauth.routes.js';
import { adminRoutes } from './features/admin/login-as.routes.js';
import { apiKeyRoutes } from './features/api-keys/api-key.routes.js';
import { webRoutes } from './features/web/web.routes.js';
import { dashboardConfigRoutes, type MapOptions } from './features/web/dashboard-config.routes.js';
import { docsRoutes } from './features/docs/docs.routes.js';
import { DOCS_GUIDE_DIR } from './paths.js';
import { mapTileSource } from './infra/config/map-tiles.js';
import { organizationLogoRoutes } from './features/organizations/organization-logo.routes.js';
import { registerBusinessRules } from './features/rules.js';
import { invitationRoutes } from './features/invitations/invitation.routes.js';
import { setInvitationMailer } from './features/invitations/invitation-mailer.js';
import { Mailer } from './infra/mail/mailer.js';
import { InProcessBus, type Bus } from './infra/bus/bus.js';
import { setRegistryHost } from './features/releases/image-location.js';
import { deployRoutes } from './features/deploy/deploy.routes.js';
import { deviceApiRoutes } from './features/device-api/device-api.routes.js';
import { CONTRACT_FETCH_TIMEOUT_MS, type CodeHostOptions } from './features/deploy/deploy-contract.service.js';
import { cloudLinkRoutes } from './features/cloud-link/cloud-link.routes.js';
import { actionRoutes } from './features/actions/actions.routes.js';
import { JobRunner } from './infra/jobs/job-runner.js';
import { heartbeatSweepJob } from './infra/jobs/heartbeat-sweep.js';
import { useMailJobs } from './infra/jobs/mail-delivery.js';
import { accountRecoveryRoutes } from './features/account-recovery/account-recovery.routes.js';
import { emailVerificationGuard } from './features/account-recovery/email-verification.guard.js';
import type { AccountOptions } from './features/account-recovery/options.js';
import { sshKeyRoutes } from './features/ssh-keys/ssh-key.routes.js';
import { deviceTypesV1Routes } from './features/reference-data/device-types-v1.routes.js';
import { configVarsRoutes } from './features/variables/config-vars.routes.js';
import { preferencesConfigRoutes } from './features/user-preferences/preferences-config.routes.js';
import { SSH_KEY_FETCH_TIMEOUT_MS, type SshKeyImportOptions } from './features/ssh-keys/ssh-key-import.service.js';

export interface AppOptions {
  db: Db;
  jwtSecret: string;
  /**
   * Seals stored secrets (TOTP). main.ts passes the box of FLOTILLA_SECRETS_KEY or the data
   * directory's key file; without one, a box keyed from the JWT secret (tests, embedding).
   */
  secrets?: SecretBox;
  /** Built dashboard to serve; omitted in API-only tests. */
  webDistDir?: string;
  logLevel?: string;
  /**
   * Outgoing mail (main.ts builds it from SMTP_URL / FLOTILLA_MAIL_FROM / FLOTILLA_PUBLIC_URL).
   * Default: outbox only, default sender and public URL. A mailer passed in is not closed
   * with the app.
   */
  mailer?: Mailer;
  /** The pub/sub bus (main.ts: Redis with REDIS_URL). Default: in-process. Not closed with the app when passed in. */
  bus?: Bus;
  /** Registry host for image locations (FLOTILLA_REGISTRY_HOST); default registry.flotilla.local. */
  registryHost?: string;
  /**
   * The code host /deploy reads balena.yml contracts from (main.ts: FLOTILLA_CODE_HOST_URL and
   * FLOTILLA_CODE_HOST_RAW_URL). Default: GitHub, 10 s timeout; tests shorten the timeout.
   */
  codeHost?: Partial<CodeHostOptions>;
  /** Map tiles for the dashboard (FLOTILLA_MAP_TILE_URL, FLOTILLA_MAP_ATTRIBUTION); default none. */
  map?: MapOptions;
  /** The documentation the dashboard links to (FLOTILLA_DOCS_URL); default Flotilla's own guides at /docs/. */
  docsUrl?: string;
  /** Sign-up captcha, required e-mail verification, and the clock of verification and reset codes (main.ts: FLOTILLA_CAPTCHA_*, FLOTILLA_REQUIRE_EMAIL_VERIFICATION). */
  accounts?: AccountOptions;
  /** Where SSH keys are imported from (main.ts: FLOTILLA_SSH_KEYS_URL); default GitHub, 10 s timeout. */
  sshKeys?: Partial<SshKeyImportOptions>;
  /** A staging deployment (FLOTILLA_STAGING): the dashboard offers navigation stripes. */
  staging?: boolean;
  /** The two-factor TOTP clock (ms since epoch); tests move it to check drift. Default: Date.now. */
  twoFactorClock?: () => number;
  /** The clock of the 20-minute re-verification window and OAuth codes (ms since epoch); tests move it. Default: Date.now. */
  sessionClock?: () => number;
  /** Device actions: how long to wait for the device's answer (default 30 s). */
  actionTimeoutMs?: number;
  /** Each statement of a request is cancelled after this long (default 10 s; tests shorten it). */
  statementTimeoutMs?: number;
  /** Cloud link liveness ping interval (default 30 s). */
  cloudLinkPingIntervalMs?: number;
  /**
   * Run durable jobs (pg-boss; main.ts: on). Off by default so API tests do not start
   * workers; `clock` is the heartbeat sweep's notion of now.
   */
  jobs?: boolean | { clock?: () => Date; pollingIntervalSeconds?: number };
  /**
   * Which proxies' X-Forwarded-For / -Proto / -Host to believe (main.ts: FLOTILLA_TRUST_PROXY):
   * a hop count or a list of addresses/CIDRs. Default: none (the socket's peer is the client).
   */
  trustProxy?: number | string[] | undefined;
  /**
   * Uploaded files (release assets). main.ts: a store in `<FLOTILLA_DATA_DIR>/files` and
   * FLOTILLA_RELEASE_ASSET_MAX_BYTES. Default: a fresh temporary directory, removed on close
   * (tests), and RELEASE_ASSET_MAX_BYTES.
   */
  files?: { store?: FileStore; maxBytes?: number };
}

/** Fastify's trustProxy for a hop count (the nearest `hops` proxies) or a list of addresses/CIDRs. */
function trustProxyOption(trust: number | string[] | undefined): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trust === undefined) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

/** Builds the whole server as a Fastify instance; tests `inject` into it, main.ts listens. */
declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves callers; services call `forgetUser` when a user's sessions must change at once. */
    authenticator: Authenticator;
    /** Sends e-mail (SMTP or the outbox) and builds public links; see infra/mail. */
    mailer: Mailer;
    /** Pub/sub across server processes; see infra/bus. */
    bus: Bus;
    /** Durable jobs (infra/jobs), or null when the app runs without them. */
    jobs: JobRunner | null;
    /** Every route registered, with what its schemas lack (none: registration would have failed). */
    routeInventory: readonly RouteEntry[];
  }
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logLevel && opts.logLevel !== 'silent' ? { level: opts.logLevel } : false,
    bodyLimit: REQUEST_BODY_LIMIT_BYTES,
    // Off unless configured: a spoofed X-Forwarded-For would otherwise pick the address that
    // rate limits and the captcha see.
    trustProxy: trustProxyOption(opts.trustProxy),
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // pinejs-style URLs carry quotes, parentheses and commas; keep them as sent.
    routerOptions: { maxParamLength: 2000 },
    // Route schemas use `type: ['string', 'null']` for nullable fields (JSON Schema's own form).
    // EMPTY_BODY's keywords deliberately carry no type (an absent body must pass).
    ajv: { customOptions: { allowUnionTypes: true, strictTypes: false } },
  });
  installErrorHandler(app);
  // JSON and text answers above ~one TCP segment go out brotli/gzip-compressed (issue 11).
  installCompression(app);
  // Every route declares schemas for its input (or says why it parses its own): a route
  // without one fails here, at start-up, not in production.
  const routeInventory: RouteEntry[] = [];
  app.decorate('routeInventory', routeInventory);
  app.addHook('onRoute', (route) => {
    const problems = route.method === 'HEAD' ? [] : routeSchemaProblems(route);
    routeInventory.push({ method: String(route.method), url: route.url, problems });
    if (problems.length > 0) throw new Error(`route ${String(route.method)} ${route.url}: ${problems.join('; ')}`);
  });
  installInputGuard(app);
  // Before authentication, so its queries are bounded too (they count as the caller's address).
  installDbScope(app, opts.statementTimeoutMs);

  if (opts.db instanceof PoolDb) opts.db.onAfterCommitError = (err) => app.log.error({ err }, 'after-commit callback failed');
  const authenticator = new Authenticator(opts.db, opts.jwtSecret);
  app.decorate('authenticator', authenticator);
  const mailer = opts.mailer ?? new Mailer({ db: opts.db });
  mailer.useLogger(app.log);
  app.decorate('mailer', mailer);
  await installSecurityHeaders(app, { https: mailer.publicUrl.startsWith('https://') });
  const bus = opts.bus ?? new InProcessBus();
  app.decorate('bus', bus);
  const unuseApiKeyBus = await useApiKeyBus(authenticator.apiKeys, bus);
  app.addHook('onClose', async () => unuseApiKeyBus());
  if (!opts.bus) app.addHook('onClose', async () => bus.close());
  if (!opts.mailer) app.addHook('onClose', async () => mailer.close());
  app.decorateRequest('actor', null);
  app.decorateRequest('authError', undefined);
  // Callback style: a cached caller (a device's poll) is resolved without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const refused = (err: Error) => {
      // Routes that declare it answer a refused credential themselves.
      if (err instanceof UnauthorizedError && request.routeOptions.config?.handlesAuthError === true) {
        request.authError = err;
        done();
      } else done(err);
    };
    let actor: ReturnType<Authenticator['authenticate']>;
    try {
      actor = authenticator.authenticate(request);
    } catch (err) {
      refused(err as Error);
      return;
    }
    if (actor instanceof Promise) {
      actor.then(
        (a) => {
          request.actor = a;
          done();
        },
        refused,
      );
    } else {
      request.actor = actor;
      done();
    }
  });

  // balena clients send text/plain bodies in places (and an empty body with a JSON type).
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  app.get('/ping', async (_req, reply) => reply.type('text/plain').send('OK'));
  app.get('/config', async () => ({ deviceUrlsBase: 'localhost', mixpanelToken: null }));

  registerBusinessRules();
  setInvitationMailer(mailer);
  setRegistryHost(opts.registryHost);
  // FLOTILLA_REQUIRE_EMAIL_VERIFICATION: unverified users get no data API (spec 1 §4 must-verify).
  if (opts.accounts?.requireEmailVerification) app.addHook('preHandler', emailVerificationGuard(opts.db));
  await app.register(authRoutes, { db: opts.db, jwtSecret: opts.jwtSecret, account: opts.accounts });
  await app.register(accountRecoveryRoutes, { db: opts.db, jwtSecret: opts.jwtSecret, account: opts.accounts });
  const secrets = opts.secrets ?? new SecretBox(`flotilla-secrets:${opts.jwtSecret}`);
  await app.register(twoFactorRoutes, { db: opts.db, jwtSecret: opts.jwtSecret, secrets, clock: opts.twoFactorClock });
  await app.register(sessionRoutes, { db: opts.db, jwtSecret: opts.jwtSecret, now: opts.sessionClock });
  await app.register(accountRoutes, { db: opts.db, jwtSecret: opts.jwtSecret, now: opts.sessionClock });
  await app.register(oauthRoutes, { db: opts.db, jwtSecret: opts.jwtSecret, now: opts.sessionClock });
  await app.register(adminRoutes, { db: opts.db, jwtSecret: opts.jwtSecret });
  await app.register(apiKeyRoutes, { db: opts.db });
  await app.register(organizationLogoRoutes, { db: opts.db });
  await app.register(invitationRoutes, { db: opts.db });
  await app.register(deployRoutes, {
    codeHostUrl: opts.codeHost?.codeHostUrl ?? 'https://github.com',
    rawUrl: opts.codeHost?.rawUrl ?? 'https://raw.githubusercontent.com',
    timeoutMs: opts.codeHost?.timeoutMs ?? CONTRACT_FETCH_TIMEOUT_MS,
  });
  await app.register(deviceApiRoutes, { db: opts.db, bus });
  await app.register(cloudLinkRoutes, { db: opts.db, publicUrl: mailer.publicUrl, pingIntervalMs: opts.cloudLinkPingIntervalMs });
  await app.register(actionRoutes, { db: opts.db, timeoutMs: opts.actionTimeoutMs });
  await app.register(configVarsRoutes, { db: opts.db });
  await app.register(deviceTypesV1Routes, { db: opts.db });
  await app.register(preferencesConfigRoutes, { staging: opts.staging === true });
  await app.register(sshKeyRoutes, {
    db: opts.db,
    import: { keysUrl: opts.sshKeys?.keysUrl ?? 'https://github.com', timeoutMs: opts.sshKeys?.timeoutMs ?? SSH_KEY_FETCH_TIMEOUT_MS },
  });
  let store = opts.files?.store;
  if (!store) {
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-files-'));
    app.addHook('onClose', async () => rm(dir, { recursive: true, force: true }));
    store = new DirectoryFileStore(dir);
  }
  const signer = new LinkSigner(opts.jwtSecret);
  const files = new WebResources({
    db: opts.db,
    store,
    signer,
    maxBytes: opts.files?.maxBytes ?? RELEASE_ASSET_MAX_BYTES,
    onError: (err) => app.log.error({ err }, 'stored files'),
  });
  await app.register(fileRoutes, { files, signer });
  await app.register(dataApiRoutes, { db: opts.db, files });
  await app.register(docsRoutes, { dir: DOCS_GUIDE_DIR });
  await app.register(dashboardConfigRoutes, {
    map: opts.map,
    docsUrl: opts.docsUrl,
    captchaSiteKey: opts.accounts?.captcha?.siteKey,
    requireEmailVerification: opts.accounts?.requireEmailVerification,
  });
  if (opts.webDistDir) {
    const tiles = opts.map?.tileUrl ? mapTileSource(opts.map.tileUrl) : null;
    await app.register(webRoutes, { distDir: opts.webDistDir, imgSources: tiles ? [tiles] : [], captcha: Boolean(opts.accounts?.captcha?.siteKey) });
  }

  let jobs: JobRunner | null = null;
  if (opts.jobs) {
    const jobOpts = opts.jobs === true ? {} : opts.jobs;
    jobs = new JobRunner({ db: opts.db, pollingIntervalSeconds: jobOpts.pollingIntervalSeconds, onError: (err) => app.log.error({ err }, 'job runner') });
    jobs.register(heartbeatSweepJob(opts.db, jobOpts.clock));
    useMailJobs(jobs, mailer);
    jobs.register(fileGarbageJob(opts.db, store));
    await jobs.start();
    app.addHook('onClose', async () => jobs?.stop());
  }
  app.decorate('jobs', jobs);

  return app;
}
