import { useNavigate } from 'react-router';
import { ReleaseSettingsPanel } from '../../features/releases/components/release-settings-panel';
import { useReleaseRouteContext } from './release-context';
import '../../features/releases/i18n';

/** /{class}s/{id}/releases/{releaseId}/settings (spec 2 §2): validate, finalize, delete. */
export function ReleaseSettingsRoute() {
  const { release, access, fetchedAt, listPath } = useReleaseRouteContext();
  const navigate = useNavigate();
  return (
    <ReleaseSettingsPanel
      release={release}
      now={fetchedAt}
      canUpdate={access.can('resin.release.update')}
      canDelete={access.can('resin.release.delete')}
      onDeleted={() => void navigate(listPath, { replace: true })}
    />
  );
}
