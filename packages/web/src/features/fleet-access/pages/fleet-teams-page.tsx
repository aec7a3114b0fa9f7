import { Button, Link, Stack, Typography } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { FullPageError } from '../../../components/full-page-status';
import { PermissionTooltip } from '../../../components/permission-tooltip';
import { SelectableTable } from '../../../components/selectable-table';
import { useFleetTeamAccess, type FleetTeamAccess } from '../api/get-fleet-team-access';
import { useOrganizationTeams } from '../api/get-organization-teams';
import { useAddTeamAccess, useChangeTeamAccessRole, useRemoveTeamAccess } from '../api/team-access-mutations';
import { useOrganizationPlan } from '../../../lib/organization-plan';
import { fleetRoleLabel, fleetRoleOptions } from '../fleet-roles';
import { paths } from '../../../lib/paths';

const loadGrant = () => import('../../../components/grant-access-dialog');
const loadRole = () => import('../../../components/role-dialog');
const loadConfirm = () => import('../../../components/confirm-dialog');
const GrantAccessDialog = lazy(async () => ({ default: (await loadGrant()).GrantAccessDialog }));
const RoleDialog = lazy(async () => ({ default: (await loadRole()).RoleDialog }));
const ConfirmDialog = lazy(async () => ({ default: (await loadConfirm()).ConfirmDialog }));

type Dialog = { kind: 'add' } | { kind: 'role'; access: FleetTeamAccess } | { kind: 'remove'; access: FleetTeamAccess[] } | null;


interface PageProps {
  fleetId: number;
  fleetName: string;
  organizationId: number;
  canManage: boolean;
}

export function FleetTeamsPage({ fleetId, fleetName, organizationId, canManage }: PageProps) {
  const { t } = useTranslation();
  const rows = useFleetTeamAccess(fleetId);
  const teams = useOrganizationTeams(fleetId, organizationId);
  const add = useAddTeamAccess();
  const changeRole = useChangeTeamAccessRole();
  const remove = useRemoveTeamAccess();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const close = () => setDialog(null);
  const plan = useOrganizationPlan(organizationId);
  const roleOptions = fleetRoleOptions(t, plan?.limits ?? null);
  const picked = (rows.data ?? []).filter((a) => selected.has(a.id));
  const granted = new Set((rows.data ?? []).map((a) => a.teamId));

  return (
    <>
      <Stack component="section" aria-label={t('fleet_teams.title')} spacing={1}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
            {t('fleet_teams.title')}
          </Typography>
          <PermissionTooltip allowed={canManage}>
            <Button variant="contained" disabled={!canManage} onClick={() => setDialog({ kind: 'add' })} onPointerEnter={() => void loadGrant()}>
              {t('fleet_teams.add')}
            </Button>
          </PermissionTooltip>
          <PermissionTooltip allowed={canManage}>
            <Button
              variant="outlined"
              color="error"
              disabled={!canManage || picked.length === 0}
              onClick={() => setDialog({ kind: 'remove', access: picked })}
              onPointerEnter={() => void loadConfirm()}
            >
              {t('fleet_teams.remove')}
            </Button>
          </PermissionTooltip>
        </Stack>
        {rows.isError ? (
          <FullPageError message={t('fleet_teams.load_failed')} onRetry={() => void rows.refetch()} />
        ) : rows.data?.length === 0 ? (
          <Typography color="text.secondary">{t('fleet_teams.empty')}</Typography>
        ) : (
          <SelectableTable
            label={t('fleet_teams.title')}
            rows={rows.data ?? []}
            getId={(a) => a.id}
            getName={(a) => a.teamName}
            canManage={canManage}
            selected={selected}
            onSelectedChange={setSelected}
            columns={[
              {
                key: 'team',
                header: t('fleet_teams.col_team'),
                render: (a) => (
                  <Link component={RouterLink} to={paths.organizationTeam(organizationId, a.teamId)}>
                    {a.teamName}
                  </Link>
                ),
              },
              { key: 'role', header: t('fleet_teams.col_role'), render: (a) => fleetRoleLabel(a.role, t) },
              { key: 'members', header: t('fleet_teams.col_members'), render: (a) => a.memberCount },
              {
                key: 'actions',
                header: t('fleet_teams.col_actions'),
                render: (a) => (
                  <PermissionTooltip allowed={canManage}>
                    <Button
                      size="small"
                      disabled={!canManage}
                      onClick={() => setDialog({ kind: 'role', access: a })}
                      onPointerEnter={() => void loadRole()}
                      aria-label={t('fleet_teams.change_role_named', { name: a.teamName })}
                    >
                      {t('fleet_teams.change_role')}
                    </Button>
                  </PermissionTooltip>
                ),
              },
            ]}
          />
        )}
      </Stack>
      <Suspense fallback={null}>
        {dialog?.kind === 'add' && (
          <GrantAccessDialog
            title={t('fleet_teams.add_title')}
            submitLabel={t('fleet_teams.add')}
            itemsLabel={t('fleet_teams.title')}
            items={teams.data?.filter((team) => !granted.has(team.id))}
            emptyText={t('fleet_teams.nothing_to_add')}
            roleOptions={roleOptions}
            onSubmit={async (teamIds, roleName) => {
              await add.mutateAsync({ fleetId, teamIds, roleName });
              return t('fleet_teams.added', { count: teamIds.length });
            }}
            onClose={close}
          />
        )}
        {dialog?.kind === 'role' && (
          <RoleDialog
            title={t('fleet_teams.change_role_title', { name: dialog.access.teamName })}
            roleOptions={roleOptions}
            currentRole={dialog.access.role}
            onSubmit={async (roleName) => {
              await changeRole.mutateAsync({ fleetId, accessId: dialog.access.id, roleName });
              setSelected(new Set());
            }}
            success={(roleName) => t('fleet_teams.role_changed', { name: dialog.access.teamName, role: fleetRoleLabel(roleName, t) })}
            onClose={close}
          />
        )}
        {dialog?.kind === 'remove' && (
          <ConfirmDialog
            title={t('fleet_teams.remove_title', { count: dialog.access.length })}
            body={t('fleet_teams.remove_body', { count: dialog.access.length, name: dialog.access[0]!.teamName, fleet: fleetName })}
            confirmLabel={t('fleet_teams.remove')}
            onConfirm={async () => {
              await remove.mutateAsync({ fleetId, teamIds: dialog.access.map((a) => a.teamId) });
              setSelected(new Set());
            }}
            success={t('fleet_teams.removed', { count: dialog.access.length })}
            onClose={close}
          />
        )}
      </Suspense>
    </>
  );
}
