import { Button, Link, Stack, Typography } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { FullPageError } from '../../../components/full-page-status';
import { PageHeader } from '../../../components/page-header';
import { useTeams } from '../api/get-teams';
import { TeamsTable } from '../components/teams-table';
import { paths } from '../../../lib/paths';

const loadCreate = () => import('../components/team-name-dialog');
const TeamNameDialog = lazy(async () => ({ default: (await loadCreate()).TeamNameDialog }));


export function OrganizationTeamsPage({ id, name, isAdmin }: { id: number; name: string; isAdmin: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const teams = useTeams(id);
  const [creating, setCreating] = useState(false);

  return (
    <>
      <PageHeader
        title={t('teams.page_title', { name })}
        actions={
          isAdmin ? (
            <Button variant="contained" onClick={() => setCreating(true)} onPointerEnter={() => void loadCreate()}>
              {t('teams.create')}
            </Button>
          ) : undefined
        }
      />
      <Stack spacing={3}>
        <Link component={RouterLink} to={paths.organization(id)} sx={{ alignSelf: 'flex-start' }}>
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
            onCreated={(teamId) => void navigate(paths.organizationTeam(id, teamId))}
          />
        )}
      </Suspense>
    </>
  );
}
