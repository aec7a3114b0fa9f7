/**
 * Every fixed port the e2e tier uses, shifted by `E2E_PORT_OFFSET` (default 0) so that two
 * checkouts can run their e2e suites on one machine at the same time.
 */
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0);
if (!Number.isInteger(offset) || offset < 0 || offset > 1000) throw new Error(`E2E_PORT_OFFSET must be an integer 0–1000, got ${process.env.E2E_PORT_OFFSET}`);

/*
 * The ports a spec listens on itself (second server processes and stand-ins the second nodes
 * or the spec read) differ per Playwright worker, so that two workers' specs never meet on one
 * (`npm test` runs the e2e specs on two workers: playwright.config.ts). Playwright sets
 * TEST_PARALLEL_INDEX (0, 1, …) in each worker; the runner, which starts the first server, has
 * none. 2,000 apart: checkouts are at most 1,000 apart.
 */
const worker = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
const perWorker = (port: number) => port + 2000 * worker;

export const E2E_PORTS = {
  server: 18080 + offset,
  /** A second server process on the same database and Redis (support/second-node.ts). */
  server2: perWorker(18085 + offset),
  /** A server process that e2e/connectivity.spec.ts stops and starts again (second-node.ts). */
  connectivityNode: perWorker(18087 + offset),
  /** The run's redis-server: the servers' bus (REDIS_URL), so two processes share it. */
  redis: 16390 + offset,
  smtp: 18025 + offset * 2,
  smtpHttp: 18026 + offset * 2,
  mapTiles: 18089 + offset,
  sshKeys: 18091 + offset,
  /** The OpenID provider of e2e/social-login.spec.ts (oidc-provider, started in the spec). */
  oidcProvider: perWorker(18093 + offset),
  /** The Stripe stand-in (API and Stripe.js) of a billing node with Stripe (support/second-node.ts). */
  stripe: perWorker(18094 + offset),
  /** The status page stand-in (a Statuspage-compatible summary feed) of e2e/platform-news.spec.ts. */
  statusFeed: perWorker(18097 + offset),
  /** The test SAML identity provider (`@flotilla/server/test-saml-idp`) of the SAML e2e specs. */
  samlIdp: perWorker(18092 + offset),
  embeddedPg: 54398 + offset,
} as const;
