import { E2E_PORTS } from './ports';
import { E2E_JWT_SECRET } from './session';

/** The support inbox of the e2e server (FLOTILLA_SUPPORT_EMAIL). */
export const E2E_SUPPORT_INBOX = 'support-inbox@flotilla.test';

/**
 * The e2e server's environment (playwright.config.ts starts it; support/second-node.ts starts a
 * second process with the same settings on another port).
 */
export function e2eServerEnv(dataDir: string): Record<string, string> {
  return {
    PORT: String(E2E_PORTS.server),
    HOST: '127.0.0.1',
    FLOTILLA_ADMIN_PASSWORD: 'e2e-admin-password-123',
    // Test-only: e2e/reverify.spec.ts signs a session whose sign-in lies in the past.
    FLOTILLA_JWT_SECRET: E2E_JWT_SECRET,
    // Not the default port, so a developer's running `npm start` does not collide.
    FLOTILLA_EMBEDDED_PG_PORT: String(E2E_PORTS.embeddedPg),
    LOG_LEVEL: 'warn',
    // The bus is Redis, as on a multi-node installation, so support/second-node.ts can start a
    // second server process that reaches the same devices (logs, terminal, actions).
    REDIS_URL: `redis://127.0.0.1:${E2E_PORTS.redis}`,
    // /deploy reads balena.yml contracts from the code host; the e2e server has no internet, so
    // the raw-file host is a closed local port (the discard port) and the fetch fails at once.
    FLOTILLA_CODE_HOST_RAW_URL: 'http://127.0.0.1:9',
    // Every mail goes over SMTP to the sink e2e/support/smtp-sink.mjs (and is recorded in the outbox too).
    SMTP_URL: `smtp://127.0.0.1:${E2E_PORTS.smtp}`,
    // Map tiles from a closed local port: the maps must work without tiles (offline), and the
    // CSP must allow exactly this origin's images.
    // (Not the discard port 9 here: Chromium refuses to fetch from it at all.)
    FLOTILLA_MAP_TILE_URL: `http://127.0.0.1:${E2E_PORTS.mapTiles}/tiles/{z}/{x}/{y}.png`,
    // SSH key import (preferences) reads <url>/<username>.keys: e2e/preferences.spec.ts serves
    // keys on this port while it runs; otherwise the port is closed.
    FLOTILLA_SSH_KEYS_URL: `http://127.0.0.1:${E2E_PORTS.sshKeys}`,
    // Issue 19: each support ticket is mailed to this inbox (through the SMTP sink); e2e/support-tickets.spec.ts reads it.
    FLOTILLA_SUPPORT_EMAIL: E2E_SUPPORT_INBOX,
    ...(process.env.DATABASE_URL
      ? { DATABASE_URL: process.env.DATABASE_URL }
      : { FLOTILLA_DATA_DIR: dataDir }),
  };
}
