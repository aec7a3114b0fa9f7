import { readFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { cliCallbackUrl } from '@flotilla/model';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches, negotiateEncoding, varyOnAcceptEncoding, type ContentCoding } from '../../infra/http/compression.js';
import { loadStaticAssets, readVariant, type StaticAsset } from './static-assets.js';

/** reCAPTCHA's widget: its script and its iframe, allowed only when a captcha site key is set. */
export const CAPTCHA_SOURCES = ['https://www.google.com', 'https://www.gstatic.com'];

/**
 * The origins the card payment form needs (issue 18 item 5): the configured Stripe.js URL's
 * origin for its script, frames and calls; for Stripe's own script host, also the hosts
 * Stripe documents for its API and 3-D Secure frames.
 */
export function paymentSources(jsUrl: string | undefined): { script: string[]; frame: string[]; connect: string[] } {
  if (!jsUrl) return { script: [], frame: [], connect: [] };
  const origin = new URL(jsUrl).origin;
  const stripeHosted = origin === 'https://js.stripe.com';
  return {
    script: [origin],
    frame: stripeHosted ? [origin, 'https://hooks.stripe.com'] : [origin],
    connect: stripeHosted ? [origin, 'https://api.stripe.com'] : [origin],
  };
}

export function contentSecurityPolicy(
  imgSources: string[] = [],
  options: { captcha?: boolean; formTargets?: string[]; payment?: { script: string[]; frame: string[]; connect: string[] } } = {},
): string {
  const captcha = options.captcha ? CAPTCHA_SOURCES : [];
  const payment = options.payment ?? { script: [], frame: [], connect: [] };
  const frames = [...captcha, ...payment.frame];
  return [
    "default-src 'self'",
    ["script-src 'self'", ...captcha, ...payment.script].join(' '),
    ...(frames.length ? [['frame-src', ...frames].join(' ')] : []),
    // MUI/emotion inject <style> elements at run time.
    "style-src 'self' 'unsafe-inline'",
    // Map tiles come from the configured tile server's origin (FLOTILLA_MAP_TILE_URL) only.
    ["img-src 'self' data: blob:", ...imgSources].join(' '),
    "font-src 'self' data:",
    ["connect-src 'self'", ...payment.connect].join(' '),
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    // `balena login --web`: /login/cli posts the session token to the CLI's loopback server
    // (or, on that page only, to the IP-address callback it names: see cliFormTarget).
    ["form-action 'self' http://localhost:* http://127.0.0.1:*", ...(options.formTargets ?? [])].join(' '),
  ].join('; ');
}
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

const CLI_LOGIN_PREFIX = '/login/cli/';

/**
 * The origin /login/cli/{callback} will post the token to, when the callback is one the page
 * accepts (localhost or an IP address; the rule lives in the model) and the page's default
 * policy does not cover it already. CSP host sources cannot name IPv6 literals, so those
 * stay blocked by the browser.
 */
export function cliFormTarget(rawUrl: string): string | undefined {
  const path = rawUrl.split('?')[0] ?? '';
  if (!path.startsWith(CLI_LOGIN_PREFIX)) return undefined;
  const callback = cliCallbackUrl(path.slice(CLI_LOGIN_PREFIX.length));
  if (!callback || callback.hostname.startsWith('[')) return undefined;
  if (callback.protocol === 'http:' && (callback.hostname === 'localhost' || callback.hostname === '127.0.0.1')) return undefined;
  return callback.origin;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  // The bundled CHANGELOG.md (issue 19), read by the dashboard's changelog dialog.
  '.md': 'text/markdown; charset=utf-8',
};

/**
 * The build's time stamp (written by the dashboard build, issue 19): the dashboard polls it
 * every 10 minutes and offers a reload when it changes. Read from disk at each request (a few
 * bytes), so a build put in place under a running server is seen too.
 */
export const BUILD_TIME_FILE = 'buildtime.txt';

// Paths that belong to the API: a non-browser GET of an unknown one gets a JSON 404, while a
// browser navigation (Accept: text/html) still gets the dashboard, whose routes include
// /user/verify-email/… and /auth/{provider}/callback. "Belongs to the API" is read from the
// app's own routes (the route inventory): any path whose first segment some API route has, so
// a feature's new routes are covered without a list to keep. /v6 and /v7 are named as well: the
// data API answers them itself, but an app built without it must not serve the page there.
const DATA_API_ROOTS = ['v6', 'v7'];

/** The first path segments of the app's API routes (not the dashboard's catch-all). */
export function apiRootsOf(urls: readonly string[]): ReadonlySet<string> {
  const roots = new Set(DATA_API_ROOTS);
  for (const url of urls) {
    const first = url.split('/')[1] ?? '';
    if (first !== '' && !first.startsWith(':') && !first.startsWith('*')) roots.add(first);
  }
  return roots;
}

/**
 * One file of the build in the coding the client prefers (its pre-compressed brotli or gzip
 * variant, see static-assets.ts), with that representation's ETag; 304 when the client has it.
 */
async function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: StaticAsset, type: string): Promise<FastifyReply> {
  const offered = (['br', 'gzip'] as const).filter((c) => asset.encoded[c]) as ContentCoding[];
  if (offered.length > 0) varyOnAcceptEncoding(reply);
  const coding = negotiateEncoding(request.headers['accept-encoding'], offered);
  const variant = coding === 'identity' ? asset.identity : asset.encoded[coding]!;
  reply.header('ETag', variant.etag);
  if (coding !== 'identity') reply.header('Content-Encoding', coding);
  if (etagMatches(request.headers['if-none-match'], variant.etag)) return reply.code(304).send();
  return reply.type(type).send(await readVariant(variant));
}

/**
 * Serves the built dashboard (packages/web/dist) with a strict Content-Security-Policy:
 * no inline scripts. Unknown paths that are not API routes get index.html (SPA routing).
 * Files are indexed at start-up; compressible ones go out pre-compressed (brotli or gzip by
 * Accept-Encoding, Vary: Accept-Encoding), made by the dashboard build or else at start.
 */
export async function webRoutes(
  app: FastifyInstance,
  { distDir, imgSources, captcha, stripeJsUrl }: { distDir: string; imgSources?: string[]; captcha?: boolean; stripeJsUrl?: string | undefined },
): Promise<void> {
  const root = resolve(distDir); // no trailing separator, whatever the caller passed
  const payment = paymentSources(stripeJsUrl);
  const policy = contentSecurityPolicy(imgSources, { captcha, payment });
  // Only the indexed files are served: a URL never becomes a file-system path.
  // Brotli variants missing from the build (see static-assets.ts) are made in the background.
  const { assets } = await loadStaticAssets(root, (message) => app.log.warn(message));
  const indexHtml = assets.get('/index.html');
  let roots: ReadonlySet<string> | undefined;

  app.addHook('onSend', async (_request, reply, payload) => {
    // nosniff, framing and referrer headers come from infra/http/security-headers.ts (helmet, every response).
    if (!reply.hasHeader('Content-Security-Policy')) reply.header('Content-Security-Policy', policy);
    return payload;
  });

  // The files' codings are chosen here (sendAsset), not by the app-wide compression.
  app.get('/*', { config: { compress: false, ownInput: 'a file path, resolved inside the dist directory' } }, async (request, reply) => {
    let path: string;
    try {
      path = decodeURIComponent(request.url.split('?')[0] ?? '/');
    } catch {
      path = request.url.split('?')[0] ?? '/';
    }
    const wantsHtml = request.headers.accept?.includes('text/html') ?? false;
    // Every route is registered by the time the app serves its first request.
    roots ??= apiRootsOf(app.routeInventory.map((r) => r.url));
    if (!wantsHtml && roots.has(path.split('/')[1] ?? '')) {
      return reply.code(404).type('application/json').send(JSON.stringify(`Not found: GET ${path}`));
    }
    if (path === `/${BUILD_TIME_FILE}`) {
      const stamp = await readFile(join(root, BUILD_TIME_FILE), 'utf8').catch(() => undefined);
      if (stamp === undefined) return reply.code(404).type('text/plain').send('Not found');
      return reply.header('Cache-Control', 'no-store').type(TYPES['.txt']!).send(stamp.trim().slice(0, 100));
    }
    const asset = extname(path) ? assets.get(path) : undefined;
    if (asset) {
      const immutable = path.startsWith('/assets/');
      reply.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      return sendAsset(request, reply, asset, TYPES[extname(path)] ?? 'application/octet-stream');
    }
    if (path.startsWith('/assets/') && extname(path)) return reply.code(404).send('Not found');
    if (!indexHtml) {
      return reply
        .code(503)
        .type('text/plain')
        .send('The dashboard has not been built. Run `npm run build` (npm start does this for you).');
    }
    const formTarget = cliFormTarget(request.url);
    if (formTarget) reply.header('Content-Security-Policy', contentSecurityPolicy(imgSources, { captcha, payment, formTargets: [formTarget] }));
    reply.header('Cache-Control', 'no-cache');
    return sendAsset(request, reply, indexHtml, TYPES['.html']!);
  });
}
