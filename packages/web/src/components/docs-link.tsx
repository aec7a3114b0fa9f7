import { Link } from '@mui/material';
import type { ReactNode } from 'react';
import { useInstallConfig } from '../lib/dashboard-config';
import { docsHref, type DocsPage } from '../lib/docs';

/** The address of a documentation page on this installation. */
export function useDocsHref(page: DocsPage): string {
  return docsHref(useInstallConfig().docsUrl, page);
}

/** Every documentation link of the dashboard: a page of the installation's docs, in a new tab. */
export function DocsLink({ page, children }: { page: DocsPage; children: ReactNode }) {
  const href = useDocsHref(page);
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </Link>
  );
}
