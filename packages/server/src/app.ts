import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { REQUEST_BODY_LIMIT_BYTES } from '@flotilla/model';
import type { AppConfig, Feature } from './infra/app/context.js';
import { createAppContext, type ContextOptions } from './infra/app/create-context.js';
import type { Authenticator } from './infra/auth/authenticate.js';
import { installAuthentication } from './infra/auth/request-actor.js';
import type { Bus } from './infra/bus/bus.js';
import { PoolDb } from './infra/db/db.js';
import { installFiles, type FilesOptions } from './infra/files/setup.js';
import type { WebResources } from './infra/files/web-resources.js';
import { installCompression } from './infra/http/compression.js';
import { installDbScope } from './infra/http/db-scope.js';
import { clientErrorHandler, frameworkErrorHandler, installErrorFormats, installErrorHandler } from './infra/http/errors.js';
import { installInputGuard } from './infra/http/input-guard.js';
import { routeSchemaProblems, type RouteEntry } from './infra/http/route-schemas.js';
import { installSecurityHeaders } from './infra/http/security-headers.js';
import type { JobRunner } from './infra/jobs/job-runner.js';
import { startJobs } from './infra/jobs/setup.js';
import type { Mailer } from './infra/mail/mailer.js';
import { dataApiRoutes } from './infra/odata/routes.js';
import * as accountRecovery from './features/account-recovery/index.js';
import * as organizations from './features/organizations/index.js';
import * as fleets from './features/fleets/index.js';
import * as access from './features/access/index.js';
import * as teams from './features/teams/index.js';
import * as invitations from './features/invitations/index.js';
import * as releases from './features/releases/index.js';
import * as registry from './features/registry/index.js';
import * as devices from './features/devices/index.js';
import * as apiKeys from './features/api-keys/index.js';
import * as deviceApi from './features/device-api/index.js';
import * as variables from './features/variables/index.js';
import * as tags from './features/tags/index.js';
import * as sshKeys from './features/ssh-keys/index.js';
import * as identityProviders from './features/identity-providers/index.js';
import * as userPreferences from './features/user-preferences/index.js';
import * as auth from './features/auth/index.js';
import * as twoFactor from './features/two-factor/index.js';
import * as account from './features/account/index.js';
import * as oauth from './features/oauth/index.js';
import * as socialLogin from './features/social-login/index.js';
import * as saml from './features/saml/index.js';
import * as admin from './features/admin/index.js';
import * as deploy from './features/deploy/index.js';
import * as cloudLink from './features/cloud-link/index.js';
import * as deviceLogs from './features/device-logs/index.js';
import * as actions from './features/actions/index.js';
import * as terminal from './features/terminal/index.js';
import * as deviceDiagnostics from './features/device-diagnostics/index.js';
import * as osUpdate from './features/os-update/index.js';
import * as referenceData from './features/reference-data/index.js';
import * as provisioning from './features/provisioning/index.js';
import * as agentReleases from './features/agent-releases/index.js';
import * as billing from './features/billing/index.js';
import * as support from './features/support/index.js';
import * as staffAudit from './features/staff-audit/index.js';
import * as docs from './features/docs/index.js';
import * as web from './features/web/index.js';

/**
 * The features, each `setup(app, rules)`: its business rules on the app's registry, its
 * routes on the app. Rules on the same (resource, method) run in this order.
 * account-recovery comes first: its e-mail verification guard must be on the root before
 * any feature registers routes.
 */
const FEATURES: readonly Feature[] = [
  accountRecovery,
  organizations,
  fleets,
  access,
  teams,
  invitations,
  releases,
  registry,
  devices,
  apiKeys,
  deviceApi,
  variables,
  tags,
  sshKeys,
  userPreferences,
  auth,
  twoFactor,
  account,
  oauth,
  socialLogin,
  saml,
  admin,
  deploy,
  cloudLink,
  deviceLogs,
  actions,
  terminal,
  deviceDiagnostics,
  osUpdate,
  referenceData,
  provisioning,
  agentReleases,
  billing,
  identityProviders,
  staffAudit,
];

/** Features after the data API and the file store (support keeps attachments there; the dashboard answers what no API route does). */
const LAST_FEATURES: readonly Feature[] = [support, docs, web];

/**
 * What buildApp needs: the configured values (AppConfig) and the objects the app runs with
 * (ContextOptions: db, secrets, mailer, bus, clock; see infra/app), and the HTTP settings.
 */
export interface AppOptions extends ContextOptions {
  /**
   * pino level. Events an operator needs (plan changes, freezes, login-as, releases published)
   * are logged at `info`; one line per request only at `debug`/`trace`.
   */
  logLevel?: string;
  /** Where the log goes (default stdout; tests capture it). */
  logStream?: { write(line: string): void };
  /** Each statement of a request is cancelled after this long (default 10 s; tests shorten it). */
  statementTimeoutMs?: number;
  /** Run durable jobs (pg-boss; main.ts: on). Off by default so API tests do not start workers. */
  jobs?: boolean | { pollingIntervalSeconds?: number };
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
  files?: FilesOptions;
}

/** Fastify's trustProxy for a hop count (the nearest `hops` proxies) or a list of addresses/CIDRs. */
function trustProxyOption(trust: number | string[] | undefined): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trust === undefined) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves callers; services call `forgetUser` when a user's sessions must change at once. */
    authenticator: Authenticator;
    /** Sends e-mail (SMTP or the outbox) and builds public links; see infra/mail. */
    mailer: Mailer;
    /** Pub/sub across server processes; see infra/bus. */
    bus: Bus;
    /** Stored files (release assets, support attachments) and their signed links; see infra/files. */
    files: WebResources;
    /** Durable jobs (infra/jobs), or null when the app runs without them. */
    jobs: JobRunner | null;
    /** Every route registered, with what its schemas lack (none: registration would have failed). */
    routeInventory: readonly RouteEntry[];
  }
}

/**
 * Per-request lines ("incoming request", "request completed", "route not found") only at debug/trace: at info the
 * log carries the events an operator acts on. A request that fails is still logged.
 */
class ErrorsOnlyRequestLog extends LogController {
  override incomingRequest(): void {}
  override routeNotFound(): void {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (error) super.requestCompleted(error, request, reply, metadata);
  }
}

/**
 * Builds the whole server as a Fastify instance (tests `inject` into it, main.ts listens):
 * the HTTP mechanisms, one app context (`app.context`), then each feature's `setup`.
 */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logLevel && opts.logLevel !== 'silent' ? { level: opts.logLevel, ...(opts.logStream ? { stream: opts.logStream } : {}) } : false,
    logController: opts.logLevel === 'debug' || opts.logLevel === 'trace' ? new LogController() : new ErrorsOnlyRequestLog(),
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
  installErrorFormats(app);
  // JSON and text answers above ~one TCP segment go out brotli/gzip-compressed (issue 11).
  installCompression(app);
  // Every route declares schemas for its input (or says why it parses its own): a route
  // without one fails here, at start-up, not in production.
  const routeInventory: RouteEntry[] = [];
  app.decorate('routeInventory', routeInventory);
  app.addHook('onRoute', (route) => {
    const problems = route.method === 'HEAD' ? [] : routeSchemaProblems(route);
    const audit = (route.config as { audit?: { action: string } } | undefined)?.audit?.action;
    routeInventory.push({ method: String(route.method), url: route.url, problems, ...(audit ? { audit } : {}) });
    if (problems.length > 0) throw new Error(`route ${String(route.method)} ${route.url}: ${problems.join('; ')}`);
  });
  installInputGuard(app);
  // Before authentication, so its queries are bounded too (they count as the caller's address).
  installDbScope(app, opts.statementTimeoutMs);

  if (opts.db instanceof PoolDb) opts.db.onAfterCommitError = (err) => app.log.error({ err }, 'after-commit callback failed');
  const context = await createAppContext(app, opts, configOf(opts));
  app.decorate('context', context);
  app.decorate('authenticator', context.authenticator);
  app.decorate('mailer', context.mailer);
  app.decorate('bus', context.bus);
  await installSecurityHeaders(app, { https: context.mailer.publicUrl.startsWith('https://') });
  installAuthentication(app, context.authenticator);

  // balena clients send text/plain bodies in places (and an empty body with a JSON type).
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  app.get('/ping', async (_req, reply) => reply.type('text/plain').send('OK'));

  for (const feature of FEATURES) await feature.setup(app, context.rules);
  const files = await installFiles(app, opts.files);
  app.decorate('files', files);
  await app.register(dataApiRoutes, { db: opts.db, files });
  for (const feature of LAST_FEATURES) await feature.setup(app, context.rules);

  app.decorate('jobs', opts.jobs ? await startJobs(app, files.store, opts.jobs === true ? {} : opts.jobs, [app.registry.job, app.deviceLogs.job, ...app.billingJobs]) : null);
  return app;
}

/** The configured values of `opts` (what features read as `app.context.config`). */
function configOf(opts: AppOptions): AppConfig {
  const { db: _db, secrets: _secrets, mailer: _mailer, bus: _bus, clock: _clock, logLevel: _log, logStream: _logStream, statementTimeoutMs: _timeout, jobs: _jobs, trustProxy: _trust, files: _files, ...config } = opts;
  return config;
}
