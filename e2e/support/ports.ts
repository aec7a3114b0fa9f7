/**
 * Every fixed port the e2e tier uses, shifted by `E2E_PORT_OFFSET` (default 0) so that two
 * checkouts can run their e2e suites on one machine at the same time.
 */
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0);
if (!Number.isInteger(offset) || offset < 0 || offset > 1000) throw new Error(`E2E_PORT_OFFSET must be an integer 0–1000, got ${process.env.E2E_PORT_OFFSET}`);

export const E2E_PORTS = {
  server: 18080 + offset,
  /** A second server process on the same database and Redis (support/second-node.ts). */
  server2: 18085 + offset,
  /** A server process that e2e/connectivity.spec.ts stops and starts again (second-node.ts). */
  connectivityNode: 18087 + offset,
  /** The run's redis-server: the servers' bus (REDIS_URL), so two processes share it. */
  redis: 16390 + offset,
  smtp: 18025 + offset * 2,
  smtpHttp: 18026 + offset * 2,
  mapTiles: 18089 + offset,
  sshKeys: 18091 + offset,
  /** The OpenID provider of e2e/social-login.spec.ts (oidc-provider, started in the spec). */
  oidcProvider: 18093 + offset,
  /** The Stripe stand-in (API and Stripe.js) of a billing node with Stripe (support/second-node.ts). */
  stripe: 18094 + offset,
  /** The status page stand-in (a Statuspage-compatible summary feed) of e2e/platform-news.spec.ts. */
  statusFeed: 18097 + offset,
  /** The test SAML identity provider (`@flotilla/server/test-saml-idp`) of the SAML e2e specs. */
  samlIdp: 18092 + offset,
  embeddedPg: 54398 + offset,
} as const;
