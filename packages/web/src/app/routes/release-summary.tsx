import { ReleaseSummaryPage } from '../../features/releases/pages/release-summary-page';
import { useReleaseRouteContext } from './release-context';

/** /{class}s/{id}/releases/{releaseId}/summary (spec 2 §2 "Release pages"). */
export function ReleaseSummaryRoute() {
  const { release, access, fetchedAt } = useReleaseRouteContext();
  return <ReleaseSummaryPage release={release} access={access} fetchedAt={fetchedAt} />;
}
