/** The guides every documentation link of the dashboard may name (docs/guide/<page>.md). */
export type DocsPage = 'index' | 'fleets' | 'apps' | 'blocks' | 'devices' | 'support' | 'variables';

/**
 * The one place a documentation address is made (components/docs-link.tsx uses it): `base`
 * is the installation's docs (FLOTILLA_DOCS_URL, default the server's own /docs/); a page is
 * a path below it.
 */
export function docsHref(base: string, page: DocsPage): string {
  const root = base.endsWith('/') ? base : `${base}/`;
  return page === 'index' ? root : `${root}${page}`;
}
