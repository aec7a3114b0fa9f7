import { test } from '@playwright/test';
import { StripeStandIn } from '@flotilla/server/test-stripe';
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { databaseUrl } from './db';
import { E2E_PORTS } from './ports';
import { e2eServerEnv } from './server-env';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface SecondNode {
  /** `http://127.0.0.1:<port>`: open the dashboard here to be served by the second process. */
  baseURL: string;
  stop(): Promise<void>;
}

/**
 * A second Flotilla server process beside the one Playwright starts, as behind a load
 * balancer: the same built bundle and settings, the same PostgreSQL (the first process's
 * embedded one, or DATABASE_URL) and the same Redis bus, its own port. A browser on this node
 * reaches devices whose cloud link the first node holds only through the bus — what the
 * multi-node tests of issue 15 prove. `extraEnv` adds settings of its own; `port` another port
 * than `E2E_PORTS.server2` (a node a spec stops and starts again). Stop it in afterAll.
 */
export async function startSecondNode(extraEnv: Record<string, string> = {}, port: number = E2E_PORTS.server2): Promise<SecondNode> {
  const dataDir = process.env.FLOTILLA_E2E_DATA_DIR;
  if (!dataDir) throw new Error('FLOTILLA_E2E_DATA_DIR is not set (playwright.config.ts sets it)');
  const env = {
    ...process.env,
    ...e2eServerEnv(dataDir),
    PORT: String(port),
    // The first process's database; its data directory holds the shared keys (secrets box,
    // registry signing key) and files, as a shared volume would.
    DATABASE_URL: databaseUrl(),
    FLOTILLA_DATA_DIR: dataDir,
    // Settings this node runs with besides the shared ones (e.g. FLOTILLA_BILLING=on).
    ...extraEnv,
  };
  const child = spawn(process.execPath, ['--enable-source-maps', 'packages/server/dist/main.mjs'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const baseURL = `http://127.0.0.1:${port}`;
  await waitForPing(baseURL, child, () => output);
  return {
    baseURL,
    stop: () => stopProcess(child),
  };
}

async function waitForPing(baseURL: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the second server exited (${child.exitCode}):\n${output()}`);
    try {
      const res = await fetch(`${baseURL}/ping`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`the second server did not answer /ping within 60 s:\n${output()}`);
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolveStop();
    });
    child.kill('SIGTERM');
  });
}

/** The Stripe webhook signing secret of a billing node with Stripe (`FLOTILLA_STRIPE_WEBHOOK_SECRET`). */
export const E2E_STRIPE_WEBHOOK_SECRET = 'whsec_e2e_standin';

export interface BillingNodeOptions {
  /**
   * The Stripe provider instead of the manual one: a Stripe stand-in (its API and a Stripe.js
   * stand-in, `@flotilla/server/test-stripe`) is started on `E2E_PORTS.stripe` and the node
   * points FLOTILLA_STRIPE_API_URL / FLOTILLA_STRIPE_JS_URL at it, with test keys and
   * E2E_STRIPE_WEBHOOK_SECRET.
   */
  stripe?: boolean;
}

/**
 * For the billing specs: a second node with billing on (the main e2e server keeps billing off,
 * so the other specs are not limited by plans), started before the calling spec's (or describe
 * block's) tests and stopped after them. Its `baseURL` (and `stripe`, the stand-in, with
 * `{ stripe: true }`) are read once the tests run.
 */
export function useBillingNode(extraEnv: Record<string, string> = {}, options: BillingNodeOptions = {}): { readonly baseURL: string; readonly stripe: StripeStandIn } {
  let node: SecondNode | undefined;
  let stripe: StripeStandIn | undefined;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    let stripeEnv: Record<string, string> = {};
    if (options.stripe) {
      stripe = new StripeStandIn('sk_test_e2e_standin', 'pk_test_e2e_standin');
      await stripe.start(E2E_PORTS.stripe);
      stripeEnv = {
        FLOTILLA_STRIPE_SECRET_KEY: stripe.secretKey,
        FLOTILLA_STRIPE_PUBLISHABLE_KEY: stripe.publishableKey,
        FLOTILLA_STRIPE_API_URL: stripe.url,
        FLOTILLA_STRIPE_JS_URL: stripe.jsUrl,
        FLOTILLA_STRIPE_WEBHOOK_SECRET: E2E_STRIPE_WEBHOOK_SECRET,
      };
    }
    node = await startSecondNode({ FLOTILLA_BILLING: 'on', ...stripeEnv, ...extraEnv });
  });
  test.afterAll(async () => {
    await node?.stop();
    await stripe?.close();
  });
  return {
    get baseURL() {
      if (!node) throw new Error('the billing node is not started yet (read baseURL inside a test)');
      return node.baseURL;
    },
    get stripe() {
      if (!stripe) throw new Error('this billing node runs without the Stripe stand-in (useBillingNode(env, { stripe: true }))');
      return stripe;
    },
  };
}
