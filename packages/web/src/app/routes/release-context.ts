import { useOutletContext } from 'react-router';
import type { FleetAccess } from '../../lib/fleet-access';
import type { ReleaseDetails } from '../../features/releases/api/get-release';

/** What the release shell hands its sub-pages (summary, settings). */
export interface ReleaseRouteContext {
  release: ReleaseDetails;
  access: FleetAccess;
  /** When the release was last fetched: the clock for the running → timeout display rule. */
  fetchedAt: number;
  /** /{class}s/{id}/releases */
  listPath: string;
}

export function useReleaseRouteContext(): ReleaseRouteContext {
  return useOutletContext<ReleaseRouteContext>();
}
