import { Button, Link, ListItem, ListItemText, Paper, Stack, Tab, Tabs, Typography } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { AccessByRoleCard } from '../../../components/access-by-role-card';
import { FullPageError, FullPageSpinner } from '../../../components/full-page-status';
import { PageHeader } from '../../../components/page-header';
import { RedirectWithError } from '../../../components/redirect-with-error';
import { useSession } from '../../../lib/get-session';
import { useDeleteTeam } from '../api/delete-team';
import { useDeleteTeamAccess } from '../api/delete-team-access';
import { useDeleteTeamMemberships } from '../api/delete-team-memberships';
import { useTeam, type TeamAccess, type TeamDetails, type TeamMember } from '../api/get-team';
import { SummaryListCard } from '../../../components/summary-list-card';
import { SelectableTable } from '../../../components/selectable-table';
import { APPLICATION_CLASSES, type ApplicationClass } from '@flotilla/model';
import { formatDate } from '../../../lib/date-format';
import { paths } from '../../../lib/paths';

const loadName = () => import('../components/team-name-dialog');
const loadAddMembers = () => import('../components/add-team-members-dialog');
const loadAssign = () => import('../components/assign-applications-dialog');
const loadConfirm = () => import('../../../components/confirm-dialog');
const TeamNameDialog = lazy(async () => ({ default: (await loadName()).TeamNameDialog }));
const AddTeamMembersDialog = lazy(async () => ({ default: (await loadAddMembers()).AddTeamMembersDialog }));
const AssignApplicationsDialog = lazy(async () => ({ default: (await loadAssign()).AssignApplicationsDialog }));
const ConfirmDialog = lazy(async () => ({ default: (await loadConfirm()).ConfirmDialog }));

/** Sub-pages (spec 1 §2); apps only with the apps feature flag. */
export const TEAM_TABS = ['members', 'fleets', 'apps', 'blocks'] as const;
type TabName = (typeof TEAM_TABS)[number];

/** What the page needs from the organization (the route reads it through the organizations feature). */
export interface TeamOrganization {
  /** The caller's membership of the team's organization: administrators manage the team. */
  membership: { isError: boolean; isPending: boolean; refetch: () => Promise<unknown>; data: { role: string | null } | null | undefined };
  /** The organization's members: the add-members dialog offers those not yet in the team. */
  members: readonly { userId: number; username: string | undefined }[] | undefined;
  /** The apps feature flag (the apps tab). */
  appsEnabled: boolean | undefined;
}


/** One team's page: its summary and the tab `tab` (the route checked the ids and the tab). */
export function TeamSummaryPage({ orgId, teamId, tab, organization }: { orgId: number; teamId: number; tab: TabName | undefined; organization: TeamOrganization }) {
  const { t } = useTranslation();
  const team = useTeam(teamId);
  const { membership } = organization;
  if (team.isError || membership.isError) {
    return <FullPageError message={t('teams.team_load_failed')} onRetry={() => void Promise.all([team.refetch(), membership.refetch()])} />;
  }
  if (team.isPending || membership.isPending) return <FullPageSpinner />;
  // Missing, not readable, or of another organization: all look the same.
  if (team.data === null || team.data.organizationId !== orgId) {
    return <RedirectWithError to={paths.organization(orgId, 'teams')} message={t('teams.unauthorized')} />;
  }
  return <TeamSummary team={team.data} tab={tab} isAdmin={membership.data?.role === 'administrator'} orgMembers={organization.members} appsEnabled={organization.appsEnabled} />;
}

type Dialog =
  | { kind: 'rename' | 'delete' | 'leave' | 'add-members' }
  | { kind: 'assign'; appClass: ApplicationClass }
  | { kind: 'remove-members'; members: TeamMember[] }
  | { kind: 'remove-access'; access: TeamAccess[] }
  | null;

function TeamSummary({ team, tab, isAdmin, orgMembers, appsEnabled }: { team: TeamDetails; tab: TabName | undefined; isAdmin: boolean; orgMembers: TeamOrganization['members']; appsEnabled: boolean | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const deleteTeam = useDeleteTeam();
  const deleteMemberships = useDeleteTeamMemberships();
  const deleteAccess = useDeleteTeamAccess();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const close = () => setDialog(null);
  const base = paths.organizationTeam(team.organizationId, team.id);
  const teamsList = paths.organization(team.organizationId, 'teams');

  const myMembership = team.members.find((m) => m.userId === session.data?.id);
  const classes = APPLICATION_CLASSES.filter((c) => c !== 'app' || appsEnabled === true);
  const accessOf = (appClass: ApplicationClass) => team.access.filter((a) => a.appClass === appClass);
  const memberName = (m: TeamMember) => m.username ?? t('org_summary.user_fallback', { id: m.userId });
  const created = new Date(team.created_at);
  const roleLabel = (role: string) => (['observer', 'operator', 'developer', 'administrator'].includes(role) ? t(`teams.role_${role as 'observer'}`) : role);

  // A confirmed change clears the selection; the dialog toasts and closes (ConfirmDialog).
  const clearingSelection = (action: () => Promise<unknown>) => async () => {
    await action();
    setSelected(new Set());
  };
  const backToTeams = () => void navigate(teamsList, { replace: true });

  const candidates = (orgMembers ?? []).flatMap((m) =>
    m.username !== undefined && !team.members.some((tm) => tm.userId === m.userId) ? [{ userId: m.userId, username: m.username }] : [],
  );

  const changeTab = () => setSelected(new Set());

  const accessTable = (appClass: ApplicationClass) => {
    const rows = accessOf(appClass);
    const label = t(`teams.${appClass}s`);
    const picked = rows.filter((a) => selected.has(a.id));
    return (
      <Stack spacing={1}>
        {isAdmin && (
          <Stack direction="row" spacing={2}>
            <Button variant="contained" onClick={() => setDialog({ kind: 'assign', appClass })} onPointerEnter={() => void loadAssign()}>
              {t('teams.assign', { kind: label })}
            </Button>
            <Button
              variant="outlined"
              color="error"
              disabled={picked.length === 0}
              onClick={() => setDialog({ kind: 'remove-access', access: picked })}
              onPointerEnter={() => void loadConfirm()}
            >
              {t('teams.remove_access')}
            </Button>
          </Stack>
        )}
        {rows.length === 0 ? (
          <Typography color="text.secondary">{t(`teams.${appClass}s_empty`)}</Typography>
        ) : (
          <SelectableTable
            label={label}
            rows={rows}
            getId={(a) => a.id}
            getName={(a) => a.appName}
            canManage={isAdmin}
            selected={selected}
            onSelectedChange={setSelected}
            columns={[
              { key: 'name', header: t('teams.col_name'), render: (a) => a.appName },
              { key: 'role', header: t('teams.col_role'), render: (a) => roleLabel(a.role) },
            ]}
          />
        )}
      </Stack>
    );
  };

  const pickedMembers = team.members.filter((m) => selected.has(m.membershipId));

  return (
    <>
      <PageHeader
        title={team.name}
        actions={
          <>
            {isAdmin && (
              <Button variant="outlined" onClick={() => setDialog({ kind: 'rename' })} onPointerEnter={() => void loadName()}>
                {t('teams.rename')}
              </Button>
            )}
            {myMembership && (
              <Button variant="outlined" color="warning" onClick={() => setDialog({ kind: 'leave' })} onPointerEnter={() => void loadConfirm()}>
                {t('teams.leave')}
              </Button>
            )}
            {isAdmin && (
              <Button variant="contained" color="error" onClick={() => setDialog({ kind: 'delete' })} onPointerEnter={() => void loadConfirm()}>
                {t('teams.delete')}
              </Button>
            )}
          </>
        }
      />
      <Stack spacing={3}>
        <Link component={RouterLink} to={teamsList} sx={{ alignSelf: 'flex-start' }}>
          {t('teams.back_to_teams')}
        </Link>
        <Paper variant="outlined" component="section" aria-label={t('teams.details')} sx={{ p: 2 }}>
          <Typography variant="body2" color="text.secondary">
            {t('teams.created_on')}
          </Typography>
          <time dateTime={team.created_at}>
            {formatDate(created) ?? team.created_at}
          </time>
        </Paper>
        <Tabs value={tab ?? 'summary'} aria-label={t('teams.sections')} onChange={changeTab}>
          <Tab value="summary" label={t('teams.tab_summary')} component={RouterLink} to={base} />
          {TEAM_TABS.filter((x) => x !== 'apps' || appsEnabled === true).map((x) => (
            <Tab key={x} value={x} label={t(`teams.tab_${x}`)} component={RouterLink} to={`${base}/${x}`} />
          ))}
        </Tabs>
        {tab === undefined && (
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={3}>
            <SummaryListCard title={t('teams.members')} loading={false} empty={team.members.length === 0 ? t('teams.members_empty') : undefined}>
              {team.members.map((m) => (
                <ListItem key={m.membershipId} divider>
                  <ListItemText primary={memberName(m)} />
                </ListItem>
              ))}
            </SummaryListCard>
            {classes.map((appClass) => (
              <AccessByRoleCard
                key={appClass}
                title={t(`teams.${appClass}s`)}
                empty={t(`teams.${appClass}s_empty`)}
                items={accessOf(appClass).map((a) => ({ key: a.id, name: a.appName, role: a.role }))}
                roleLabel={roleLabel}
              />
            ))}
          </Stack>
        )}
        {tab === 'members' && (
          <Stack spacing={1}>
            {isAdmin && (
              <Stack direction="row" spacing={2}>
                <Button variant="contained" onClick={() => setDialog({ kind: 'add-members' })} onPointerEnter={() => void loadAddMembers()}>
                  {t('teams.add_members')}
                </Button>
                <Button
                  variant="outlined"
                  color="error"
                  disabled={pickedMembers.length === 0}
                  onClick={() => setDialog({ kind: 'remove-members', members: pickedMembers })}
                  onPointerEnter={() => void loadConfirm()}
                >
                  {t('teams.remove_members')}
                </Button>
              </Stack>
            )}
            {team.members.length === 0 ? (
              <Typography color="text.secondary">{t('teams.members_empty')}</Typography>
            ) : (
              <SelectableTable
                label={t('teams.members')}
                rows={team.members}
                getId={(m) => m.membershipId}
                getName={memberName}
                canManage={isAdmin}
                selected={selected}
                onSelectedChange={setSelected}
                columns={[{ key: 'username', header: t('members.col_username'), render: memberName }]}
              />
            )}
          </Stack>
        )}
        {tab === 'fleets' && accessTable('fleet')}
        {tab === 'apps' && appsEnabled === true && accessTable('app')}
        {tab === 'apps' && appsEnabled === false && <RedirectWithError to={base} message={t('teams.unknown_tab')} />}
        {tab === 'blocks' && accessTable('block')}
      </Stack>
      <Suspense fallback={null}>
        {dialog?.kind === 'rename' && <TeamNameDialog mode="rename" team={team} onClose={close} />}
        {dialog?.kind === 'add-members' && <AddTeamMembersDialog teamId={team.id} candidates={candidates} onClose={close} />}
        {dialog?.kind === 'assign' && (
          <AssignApplicationsDialog
            organizationId={team.organizationId}
            teamId={team.id}
            appClass={dialog.appClass}
            assignedIds={new Set(team.access.map((a) => a.applicationId))}
            onClose={close}
          />
        )}
        {dialog?.kind === 'delete' && (
          <ConfirmDialog
            title={t('teams.delete_title')}
            body={t('teams.delete_body', { name: team.name })}
            confirmLabel={t('teams.delete')}
            onConfirm={clearingSelection(() => deleteTeam.mutateAsync({ id: team.id }))}
            success={t('teams.deleted')}
            onSuccess={backToTeams}
            onClose={close}
          />
        )}
        {dialog?.kind === 'leave' && myMembership && (
          <ConfirmDialog
            title={t('teams.leave_title')}
            body={t('teams.leave_body', { name: team.name })}
            confirmLabel={t('teams.leave')}
            onConfirm={clearingSelection(() => deleteMemberships.mutateAsync({ membershipIds: [myMembership.membershipId], leaving: true }))}
            success={t('teams.membership_deleted')}
            onSuccess={backToTeams}
            onClose={close}
          />
        )}
        {dialog?.kind === 'remove-members' && (
          <ConfirmDialog
            title={t('teams.remove_members_title', { count: dialog.members.length })}
            body={t('teams.remove_members_body', { count: dialog.members.length, name: memberName(dialog.members[0]!) })}
            confirmLabel={t('common.remove')}
            onConfirm={clearingSelection(() => deleteMemberships.mutateAsync({ membershipIds: dialog.members.map((m) => m.membershipId) }))}
            success={t('teams.member_removed', { count: dialog.members.length })}
            onClose={close}
          />
        )}
        {dialog?.kind === 'remove-access' && (
          <ConfirmDialog
            title={t('teams.remove_access_title', { count: dialog.access.length })}
            body={t('teams.remove_access_body', { count: dialog.access.length, name: dialog.access[0]!.appName })}
            confirmLabel={t('common.remove')}
            onConfirm={clearingSelection(() => deleteAccess.mutateAsync({ accessIds: dialog.access.map((a) => a.id) }))}
            success={t('teams.access_removed', { count: dialog.access.length })}
            onClose={close}
          />
        )}
      </Suspense>
    </>
  );
}
