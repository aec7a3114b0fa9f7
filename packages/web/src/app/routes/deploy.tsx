import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { deployFleetsQueryKey } from '../../features/deploy/api/get-deploy-fleets';
import { DeployPanel } from '../../features/deploy/components/deploy-panel';
import { loadDeployRequest, parseDeployQuery, setDeployTarget, storeDeployRequest, type DeployRequest } from '../../features/deploy/deploy-request';
import { paths } from '../../lib/paths';

const CreateFleetDialog = lazy(async () => ({ default: (await import('../../features/fleets/components/create-fleet-dialog')).CreateFleetDialog }));

/** Reads the link's request (stored for a day), or the stored one when the link has none. */
function takeRequest(search: URLSearchParams): DeployRequest | null {
  const now = new Date();
  const fromLink = parseDeployQuery(search);
  if (fromLink) {
    storeDeployRequest(window.localStorage, fromLink, now);
    return fromLink;
  }
  return loadDeployRequest(window.localStorage, now);
}

/**
 * /deploy?repoUrl|tarballUrl|configUrl|defaultDeviceType (spec 2 §2 deep link, §5, §9): shows
 * what is to be deployed and the repository's balena.yml contract, then deploys to an
 * existing fleet (remembered as the target) or opens the create dialog. Without a request it
 * goes to /fleets.
 */
export function DeployRoute() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [request] = useState(() => takeRequest(search));
  const [creating, setCreating] = useState(false);
  if (!request) return <Navigate to={paths.applications()} replace />;
  return (
    <>
      <PageHeader title={t('deploy.title')} />
      <DeployPanel
        request={request}
        onUseFleet={(fleetId) => {
          setDeployTarget(window.localStorage, fleetId, new Date());
          void navigate(paths.application('fleet', fleetId));
        }}
        onCreateNew={() => setCreating(true)}
      />
      {creating && (
        <Suspense fallback={null}>
          <CreateFleetDialog
            open
            initialClass="fleet"
            initialDeviceType={request.defaultDeviceType}
            onClose={() => {
              setCreating(false);
              void queryClient.invalidateQueries({ queryKey: deployFleetsQueryKey });
            }}
          />
        </Suspense>
      )}
    </>
  );
}
