import { Button, Link, Stack, Typography } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { FullPageError, FullPageSpinner } from '../../components/full-page-status';
import { PageHeader } from '../../components/page-header';
import { RedirectWithError } from '../../components/redirect-with-error';
import { useMyOrganizationMembership } from '../../features/organizations/api/get-my-organization-membership';
import { useOrganization } from '../../features/organizations/api/get-organization';
import { useTeams } from '../../features/teams/api/get-teams';
import { TeamsTable } from '../../features/teams/components/teams-table';
import { parseRouteId } from '../../lib/route-id';

const loadCreate = () => import('../../features/teams/components/team-name-dialog');
const TeamNameDialog = lazy(async () => ({ default: (await loadCreate()).TeamNameDialog }));

/** /orgs/{orgId}/teams (spec 1 §2). A non-numeric id goes up to /orgs. */
export function OrganizationTeamsRoute() {
  const { t } = useTranslation();
  const id = parseRouteId(useParams().orgId);
  if (id === undefined) return <RedirectWithError to="/orgs" message={t('invalid_id_passed_in_url')} />;
  return <OrganizationTeamsPage key={id} id={id} />;
}

function OrganizationTeamsPage({ id }: { id: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const organization = useOrganization(id);
  const membership = useMyOrganizationMembership(id);
  const teams = useTeams(id);
  const [creating, setCreating] = useState(false);

  if (organization.isError || membership.isError) {
    return (
      <FullPageError
        message={t('org_summary.load_failed')}
        onRetry={() => void Promise.all([organization.refetch(), membership.refetch()])}
      />
    );
  }
  if (organization.isPending || membership.isPending) return <FullPageSpinner />;
  if (organization.data === null) return <RedirectWithError to="/orgs" message={t('orgs.not_found')} />;
  const isAdmin = membership.data?.role === 'administrator';

  return (
    <>
      <PageHeader
        title={t('teams.page_title', { name: organization.data.name })}
        actions={
          isAdmin ? (
            <Button variant="contained" onClick={() => setCreating(true)} onPointerEnter={() => void loadCreate()}>
              {t('teams.create')}
            </Button>
          ) : undefined
        }
      />
      <Stack spacing={3}>
        <Link component={RouterLink} to={`/orgs/${id}`} sx={{ alignSelf: 'flex-start' }}>
          {t('members.back_to_summary')}
        </Link>
        {!isAdmin && <Typography color="text.secondary">{t('teams.admins_only')}</Typography>}
        {teams.isError ? (
          <FullPageError message={t('teams.load_failed')} onRetry={() => void teams.refetch()} />
        ) : teams.data?.length === 0 ? (
          <Typography color="text.secondary">{t('teams.empty')}</Typography>
        ) : (
          <TeamsTable organizationId={id} teams={teams.data} loading={teams.isPending} />
        )}
      </Stack>
      <Suspense fallback={null}>
        {creating && (
          <TeamNameDialog
            mode="create"
            organizationId={id}
            onClose={() => setCreating(false)}
            onCreated={(teamId) => void navigate(`/orgs/${id}/teams/${teamId}`)}
          />
        )}
      </Suspense>
    </>
  );
}
