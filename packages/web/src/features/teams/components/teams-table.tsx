import { Link } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { DataTable, type Column } from '../../../components/data-table';
import type { TeamRow } from '../api/get-teams';
import { paths } from '../../../lib/paths';

/** The teams page's table: name (a link to the team), member and fleet counts. */
export function TeamsTable({ organizationId, teams, loading }: { organizationId: number; teams: TeamRow[] | undefined; loading: boolean }) {
  const { t } = useTranslation();
  const columns: Column<TeamRow>[] = [
    {
      key: 'name',
      header: t('teams.col_name'),
      render: (team) => (
        <Link component={RouterLink} to={paths.organizationTeam(organizationId, team.id)}>
          {team.name}
        </Link>
      ),
    },
    { key: 'members', header: t('teams.col_members'), render: (team) => team.memberCount },
    { key: 'fleets', header: t('teams.col_fleets'), render: (team) => team.fleetCount },
  ];
  return <DataTable label={t('teams.title')} columns={columns} rows={teams} getRowKey={(team) => team.id} loading={loading} />;
}
