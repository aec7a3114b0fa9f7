import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DeployContract } from '@flotilla/model';
import { sdk } from '../../../lib/sdk';

export type { DeployContract };

/**
 * The repository's balena.yml, read by our server (`GET /deploy/v1/contract`): the
 * dashboard's CSP does not let it read other origins, and the server only reads the
 * configured code host. Errors carry the server's message ('Repository not found', …).
 */
export async function getDeployContract(repoUrl: string): Promise<DeployContract> {
  const { body } = await sdk.request.send<DeployContract>({
    method: 'GET',
    baseUrl: window.location.origin,
    url: `/deploy/v1/contract?repoUrl=${encodeURIComponent(repoUrl)}`,
  });
  return body;
}

export const deployContractQueryOptions = (repoUrl: string) =>
  queryOptions({ queryKey: ['deploy', 'contract', repoUrl], queryFn: () => getDeployContract(repoUrl), retry: false, staleTime: 5 * 60_000 });

export function useDeployContract(repoUrl: string | undefined) {
  return useQuery({ ...deployContractQueryOptions(repoUrl ?? ''), enabled: !!repoUrl });
}
