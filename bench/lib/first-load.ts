// (m) The dashboard's first load of /fleets in a real Chromium: the bytes its HTML, JavaScript
// and CSS take on the wire (Chromium asks for gzip and brotli), against the same files
// uncompressed (the baseline of this phase, measured in the same load).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Request } from '@playwright/test';
import { launchChromium } from './browser.js';
import type { ChildServer } from './child.js';
import type { Row } from './evaluate.js';
import type { Outcome } from './outcome.js';
import { progress } from './phases.js';
import type { SeededUser } from './seed.js';
import { REPO_ROOT } from './servers.js';

export const FIRST_LOAD_TARGETS = {
  /** What crosses the network for the page's code: the budget ARCHITECTURE.md gives the first page. */
  wireKb: 350,
  /** Compressed over uncompressed. */
  ratioPercent: 35,
} as const;

/** Debian's Chromium, as the e2e tests use it (Playwright's browser downloads are never used). */
const CHROMIUM = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';

export interface FirstLoadFigures {
  /** Body bytes of the HTML, JS and CSS as transferred (after content coding). */
  wireBytes: number;
  /** The same bodies decoded: what they would weigh uncompressed. */
  decodedBytes: number;
  /** Response header bytes of those files (not part of wireBytes). */
  headerBytes: number;
  files: number;
  /** Files by the content coding they came in (br, gzip, identity). */
  codings: Record<string, number>;
  /** JSON the page's API calls received, on the wire and decoded. */
  apiWireBytes: number;
  apiDecodedBytes: number;
  /** The Accept-Encoding Chromium sent for the document. */
  acceptEncoding: string;
}

const CODE_TYPE = /^(text\/html|text\/javascript|application\/javascript|text\/css)/;

/**
 * Signs in through the login page once, then loads /fleets in a fresh browser context with
 * that session (empty HTTP cache: a first load) and sums what it transferred.
 */
export async function measureFirstLoad(server: ChildServer, user: SeededUser): Promise<FirstLoadFigures> {
  if (!existsSync(join(REPO_ROOT, 'packages/web/dist/index.html'))) {
    throw new Error('the dashboard is not built: run `npm run build` (npm run bench does) first');
  }
  const browser = await launchChromium(CHROMIUM);
  try {
    progress('first load (m): signing in through the login page');
    const signIn = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1440, height: 900 } });
    const login = await signIn.newPage();
    await login.goto('/login');
    await login.getByLabel('Email or username').fill(user.email);
    await login.getByLabel('Password', { exact: true }).fill(user.password);
    await login.getByRole('button', { name: 'Sign in' }).click();
    await login.waitForURL(/\/fleets$/, { timeout: 60_000 });
    const session = await signIn.storageState();
    await signIn.close();

    progress('first load (m): /fleets in a fresh context');
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1440, height: 900 }, storageState: session });
    const page = await context.newPage();
    const finished: Request[] = [];
    page.on('requestfinished', (request) => finished.push(request));
    await page.goto('/fleets', { waitUntil: 'networkidle', timeout: 120_000 });
    // The fleet list is on screen: the page really loaded, not a login redirect.
    await page.getByText(/bench-fleet-\d{4}/).first().waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    if (!page.url().endsWith('/fleets')) throw new Error(`the first load ended on ${page.url()}, not /fleets`);

    const figures: FirstLoadFigures = {
      wireBytes: 0,
      decodedBytes: 0,
      headerBytes: 0,
      files: 0,
      codings: {},
      apiWireBytes: 0,
      apiDecodedBytes: 0,
      acceptEncoding: '',
    };
    for (const request of finished) {
      if (!request.url().startsWith(server.baseUrl)) continue;
      const response = await request.response();
      if (!response) continue;
      const type = response.headers()['content-type'] ?? '';
      const sizes = await request.sizes();
      const decoded = (await response.body().catch(() => Buffer.alloc(0))).length;
      if (request.resourceType() === 'document') figures.acceptEncoding = (await request.allHeaders())['accept-encoding'] ?? '';
      if (CODE_TYPE.test(type)) {
        figures.files++;
        figures.wireBytes += sizes.responseBodySize;
        figures.headerBytes += sizes.responseHeadersSize;
        figures.decodedBytes += decoded;
        const coding = response.headers()['content-encoding'] ?? 'identity';
        figures.codings[coding] = (figures.codings[coding] ?? 0) + 1;
      } else if (type.startsWith('application/json')) {
        figures.apiWireBytes += sizes.responseBodySize;
        figures.apiDecodedBytes += decoded;
      }
    }
    await context.close();
    if (figures.files === 0) throw new Error('the first load transferred no HTML, JavaScript or CSS');
    return figures;
  } finally {
    await browser.close();
  }
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

export function evaluateFirstLoad(outcome: Outcome<FirstLoadFigures>): Row[] {
  const base = { id: 'm', name: 'first load of /fleets: HTML+JS+CSS on the wire' };
  if (!outcome.ok) return [{ ...base, value: '—', ratio: '—', target: `≤ ${FIRST_LOAD_TARGETS.wireKb} KB`, status: 'ERROR', note: outcome.error }];
  const f = outcome.value;
  const percent = (100 * f.wireBytes) / f.decodedBytes;
  return [
    {
      ...base,
      value: `${kb(f.wireBytes)} KB`,
      ratio: `${percent.toFixed(1)} % of uncompressed (${kb(f.decodedBytes)} KB)`,
      target: `≤ ${FIRST_LOAD_TARGETS.wireKb} KB, ≤ ${FIRST_LOAD_TARGETS.ratioPercent} %`,
      status: f.wireBytes <= FIRST_LOAD_TARGETS.wireKb * 1024 && percent <= FIRST_LOAD_TARGETS.ratioPercent ? 'PASS' : 'MISS',
      note:
        `${f.files} files (${Object.entries(f.codings)
          .map(([c, n]) => `${n} ${c}`)
          .join(', ')}), ${kb(f.headerBytes)} KB of headers besides; Chromium sent Accept-Encoding: ${f.acceptEncoding}; ` +
        `API JSON ${kb(f.apiWireBytes)} KB on the wire of ${kb(f.apiDecodedBytes)} KB`,
    },
  ];
}
