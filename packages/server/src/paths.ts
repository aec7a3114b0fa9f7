import { fileURLToPath } from 'node:url';

// Paths of files the server reads at run time. This module sits one level below the package
// root both as source (src/paths.ts) and bundled (dist/main.mjs), so the same relative URLs work.
export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));
export const WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist/', import.meta.url));
/** Flotilla's own guides (markdown), served at /docs/. */
export const DOCS_GUIDE_DIR = fileURLToPath(new URL('../../../docs/guide/', import.meta.url));
