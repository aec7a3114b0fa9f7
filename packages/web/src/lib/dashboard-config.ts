import { useQuery } from '@tanstack/react-query';
import { sdk } from './sdk';

/** What `GET /config/dashboard` tells the dashboard about this installation (the parts read through here). */
export interface InstallConfig {
  /** Where the documentation links go (FLOTILLA_DOCS_URL; default the server's own /docs/). */
  docsUrl: string;
  /** Whether billing exists; seat prices are shown only then. */
  billing: boolean;
}

/** Before the answer (or when it fails): the built-in guides and no billing. */
export const DEFAULT_INSTALL_CONFIG: InstallConfig = { docsUrl: '/docs/', billing: false };

async function getInstallConfig(): Promise<InstallConfig> {
  const { body } = await sdk.request.send<Partial<InstallConfig>>({ method: 'GET', baseUrl: window.location.origin, url: '/config/dashboard', sendToken: false });
  return { docsUrl: body.docsUrl ?? DEFAULT_INSTALL_CONFIG.docsUrl, billing: body.billing === true };
}

export function useInstallConfig(): InstallConfig {
  return useQuery({ queryKey: ['config', 'dashboard', 'install'], queryFn: getInstallConfig, staleTime: Infinity, retry: 1 }).data ?? DEFAULT_INSTALL_CONFIG;
}
