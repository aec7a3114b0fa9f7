import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { nodePolyfills } from 'vite-plugin-node-polyfills';

const API_TARGET = process.env.FLOTILLA_API_URL ?? 'http://localhost:8080';
// Paths the dev server forwards to the API server; everything else is the SPA.
const API_PATHS = ['/v7', '/login_', '/user', '/actor', '/api-key', '/organization', '/ping', '/config'];

// The policy the server sends with the dashboard; `vite preview` sends it too, so a local
// preview of the production build shows any CSP breakage. (Dev mode needs inline scripts.)
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' ws: wss:";

/**
 * Writes `.br` (brotli 11) and `.gz` (gzip 9) next to every compressible file of the build, so
 * the server sends them as they are (issue 11). The server's own module does it, so the build
 * and a server started on an older build make the same files the same way.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'flotilla-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/') ? config.build.outDir : `${config.root}/${config.build.outDir}`;
    },
    async closeBundle() {
      const { loadStaticAssets } = await import('../server/src/features/web/static-assets.js');
      await (await loadStaticAssets(outDir.replace(/\/+$/, ''))).complete;
    },
  };
}

/**
 * Issue 19: the repository's CHANGELOG.md (the changelog dialog reads GET /CHANGELOG.md) and
 * buildtime.txt, this build's time stamp (the dashboard's version check polls it), written
 * into the build beside index.html.
 */
function releaseFiles(): Plugin {
  return {
    name: 'flotilla-release-files',
    apply: 'build',
    generateBundle() {
      const changelog = readFileSync(fileURLToPath(new URL('../../CHANGELOG.md', import.meta.url)), 'utf8');
      this.emitFile({ type: 'asset', fileName: 'CHANGELOG.md', source: changelog });
      this.emitFile({ type: 'asset', fileName: 'buildtime.txt', source: `${new Date().toISOString()}\n` });
    },
  };
}

const shim = (file: string) => fileURLToPath(new URL(`./src/lib/shims/${file}`, import.meta.url));

export default defineConfig({
  plugins: [
    react(),
    // balena-sdk expects Node built-ins (url, events, buffer, stream, …): without these it
    // builds but fails at run time.
    nodePolyfills(),
    releaseFiles(),
    precompress(),
  ],
  resolve: {
    alias: [
      // Each shim says why it replaces the package; both keep the first page under budget.
      { find: /^handlebars(\/dist\/cjs\/handlebars(\.js)?)?$/, replacement: shim('handlebars.ts') },
      { find: /^side-channel$/, replacement: shim('side-channel.cjs') },
      { find: /^memoizee$/, replacement: shim('memoizee.cjs') },
      { find: /^progress-stream$/, replacement: shim('progress-stream.cjs') },
      // balena-request's stream transport: the package's default export does not survive a CommonJS require.
      { find: /^fetch-readablestream$/, replacement: shim('fetch-readablestream.cjs') },
      // The small part of i18next / react-i18next the dashboard uses (types still come from
      // the real packages): ~14 kB gzip less on every first page.
      { find: /^(react-)?i18next$/, replacement: shim('i18next.ts') },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    // The default polyfill is an inline script, which the server's CSP (script-src 'self') blocks.
    modulePreload: { polyfill: false },
    // Single chunks (the SDK is ~117 kB gzip) are fine; the budget that matters is each first
    // page's total (350 kB gzip), checked by `node packages/web/scripts/first-page-size.mjs`.
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      treeshake: {
        // @flotilla/model is pure data and functions, but builds its model map at load
        // time; without this its whole resource catalogue rides along with two constants.
        moduleSideEffects: (id) => !/[\\/]packages[\\/]model[\\/]/.test(id),
      },
      output: {
        codeSplitting: {
          // react-dom's small entry module (flushSync, createPortal) rides with React itself
          // rather than as a chunk of its own on every page.
          groups: [{ name: 'react', test: /[\\/]node_modules[\\/]react(-dom)?[\\/](index\.js|cjs[\\/]react(-dom)?\.production\.js)$/ }],
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(
      API_PATHS.map((path) => [
        path,
        {
          target: API_TARGET,
          // Browser navigations to SPA routes under a proxied prefix (e.g. /user/verify-email/…)
          // get the app, not the API.
          bypass: (req) => (req.method === 'GET' && req.headers.accept?.includes('text/html') ? '/index.html' : undefined),
        },
      ]),
    ),
  },
  // preview.proxy defaults to server.proxy.
  preview: {
    headers: { 'Content-Security-Policy': CONTENT_SECURITY_POLICY },
  },
});
