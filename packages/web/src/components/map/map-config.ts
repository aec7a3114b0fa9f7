import { useQuery } from '@tanstack/react-query';
import { sdk } from '../../lib/sdk';

/** The server's map settings (`GET /config/dashboard`; FLOTILLA_MAP_TILE_URL): null tile URL = no tiles. */
export interface MapConfig {
  mapTileUrl: string | null;
  mapAttribution: string | null;
}

export async function getMapConfig(): Promise<MapConfig> {
  const { body } = await sdk.request.send<MapConfig>({ method: 'GET', baseUrl: window.location.origin, url: '/config/dashboard', sendToken: false });
  return body;
}

export function useMapConfig() {
  // A map without tiles still works, so a failed look-up just means no tiles.
  return useQuery({ queryKey: ['config', 'dashboard'], queryFn: getMapConfig, staleTime: Infinity, retry: 1 });
}
