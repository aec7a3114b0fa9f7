import type { FastifyInstance } from 'fastify';
import { ApiKeyChanges } from '../auth/api-key-cache.js';
import { Authenticator } from '../auth/authenticate.js';
import { InProcessBus, type Bus } from '../bus/bus.js';
import { SecretBox } from '../crypto/secret-box.js';
import type { Db } from '../db/db.js';
import { Mailer } from '../mail/mailer.js';
import { RuleRegistry } from '../odata/hooks.js';
import { systemClock, type AppConfig, type AppContext, type Clock } from './context.js';

/** What an app context is made of: the configured values and the objects the app runs with. */
export interface ContextOptions extends AppConfig {
  db: Db;
  /**
   * Seals stored secrets (TOTP). main.ts passes the box of FLOTILLA_SECRETS_KEY or the data
   * directory's key file; without one, a box keyed from the JWT secret (tests, embedding).
   */
  secrets?: SecretBox | undefined;
  /**
   * Outgoing mail (main.ts builds it from SMTP_URL / FLOTILLA_MAIL_FROM / FLOTILLA_PUBLIC_URL).
   * Default: outbox only, default sender and public URL. A mailer passed in is not closed
   * with the app.
   */
  mailer?: Mailer | undefined;
  /** The pub/sub bus (main.ts: Redis with REDIS_URL). Default: in-process. Not closed with the app when passed in. */
  bus?: Bus | undefined;
  /**
   * The app's one clock (ms since epoch): TOTP steps, the 20-minute re-verification window,
   * OAuth codes, verification and reset tokens and their rate limits, the heartbeat sweep.
   * Tests move it instead of waiting. Default: Date.now.
   */
  clock?: Clock | undefined;
}

/**
 * Makes the app context of `app`: its own rule registry, its bus, mailer and API key cache
 * connection (those made here are closed with the app). `config` keeps the configured values.
 */
export async function createAppContext(app: FastifyInstance, opts: ContextOptions, config: AppConfig): Promise<AppContext> {
  const authenticator = new Authenticator(opts.db, opts.jwtSecret);
  const mailer = opts.mailer ?? new Mailer({ db: opts.db });
  mailer.useLogger(app.log);
  const bus = opts.bus ?? new InProcessBus();
  const apiKeyChanges = await ApiKeyChanges.connect(authenticator.apiKeys, bus);
  app.addHook('onClose', async () => apiKeyChanges.close());
  if (!opts.bus) app.addHook('onClose', async () => bus.close());
  if (!opts.mailer) app.addHook('onClose', async () => mailer.close());
  return {
    db: opts.db,
    bus,
    mailer,
    clock: opts.clock ?? systemClock,
    config,
    rules: new RuleRegistry<AppContext>(),
    authenticator,
    apiKeyChanges,
    secrets: opts.secrets ?? new SecretBox(`flotilla-secrets:${opts.jwtSecret}`),
    log: app.log,
  };
}
