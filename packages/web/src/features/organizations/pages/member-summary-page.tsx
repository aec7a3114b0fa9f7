import { Button, Link, ListItem, ListItemText, Paper, Stack, Tab, Tabs, Typography } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { AccessByRoleCard } from '../../../components/access-by-role-card';
import { FullPageError, FullPageSpinner } from '../../../components/full-page-status';
import { PageHeader } from '../../../components/page-header';
import { RedirectWithError } from '../../../components/redirect-with-error';
import { useDeleteOrganizationMembership } from '../api/delete-organization-membership';
import { useMemberAccess, type MemberAccess, type MemberAccessItem } from '../api/get-member-access';
import { useMyOrganizationMembership } from '../api/get-my-organization-membership';
import { SummaryListCard } from '../../../components/summary-list-card';
import { APPLICATION_CLASSES, type ApplicationClass } from '@flotilla/model';
import { paths } from '../../../lib/paths';

const loadConfirm = () => import('../../../components/confirm-dialog');
const ConfirmDialog = lazy(async () => ({ default: (await loadConfirm()).ConfirmDialog }));

/** Sub-pages (spec 1 §2); apps only with the apps feature flag. */
export const MEMBER_TABS = ['teams', 'fleets', 'apps', 'blocks'] as const;
type TabName = (typeof MEMBER_TABS)[number];

/** One member's page: their teams and access (the route checked the ids and the tab). */
export function MemberSummaryPage({ orgId, memberId, tab, appsEnabled }: { orgId: number; memberId: number; tab: TabName | undefined; appsEnabled: boolean | undefined }) {
  const { t } = useTranslation();
  const member = useMemberAccess(orgId, memberId);
  const mine = useMyOrganizationMembership(orgId);
  if (member.isError || mine.isError) {
    return <FullPageError message={t('member_summary.load_failed')} onRetry={() => void Promise.all([member.refetch(), mine.refetch()])} />;
  }
  if (member.isPending || mine.isPending) return <FullPageSpinner />;
  if (member.data === null) return <RedirectWithError to={paths.organization(orgId, 'members')} message={t('member_summary.unauthorized')} />;
  return (
    <MemberSummary
      orgId={orgId}
      member={member.data}
      tab={tab}
      canDelete={mine.data?.role === 'administrator' || mine.data?.id === member.data.membershipId}
      isMe={mine.data?.id === member.data.membershipId}
      appsEnabled={appsEnabled}
    />
  );
}

interface SummaryProps {
  orgId: number;
  member: MemberAccess;
  tab: TabName | undefined;
  canDelete: boolean;
  isMe: boolean;
  appsEnabled: boolean | undefined;
}

function MemberSummary({ orgId, member, tab, canDelete, isMe, appsEnabled }: SummaryProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const deleteMembership = useDeleteOrganizationMembership();
  const [confirming, setConfirming] = useState(false);
  const base = paths.organizationMember(orgId, member.membershipId);
  const name = member.username ?? t('org_summary.user_fallback', { id: member.userId });
  const roleLabel = (role: string) =>
    (['observer', 'operator', 'developer', 'administrator'] as const).find((r) => r === role) ? t(`teams.role_${role as 'observer'}`) : role;
  const orgRole =
    member.role === 'administrator' ? t('orgs.role_administrator') : member.role === 'member' ? t('orgs.role_member') : (member.role ?? '');
  const item = (a: MemberAccessItem) => ({
    key: a.key,
    name: a.via === undefined ? a.name : t('member_summary.via_team', { name: a.name, team: a.via }),
    role: a.role,
  });
  const classes = APPLICATION_CLASSES.filter((c) => c !== 'app' || appsEnabled === true);
  const accessOf = (appClass: ApplicationClass) => member.access.filter((a) => a.appClass === appClass).map(item);


  return (
    <>
      <PageHeader
        title={name}
        actions={
          canDelete ? (
            <Button variant="contained" color="error" onClick={() => setConfirming(true)} onPointerEnter={() => void loadConfirm()}>
              {t('members.delete_member')}
            </Button>
          ) : undefined
        }
      />
      <Stack spacing={3}>
        <Link component={RouterLink} to={paths.organization(orgId, 'members')} sx={{ alignSelf: 'flex-start' }}>
          {t('member_summary.back_to_members')}
        </Link>
        <Paper variant="outlined" component="section" aria-label={t('member_summary.details')} sx={{ p: 2 }}>
          <Typography variant="body2" color="text.secondary">
            {t('members.col_role')}
          </Typography>
          <Typography>{orgRole}</Typography>
        </Paper>
        <Tabs value={tab ?? 'summary'} aria-label={t('member_summary.sections')}>
          <Tab value="summary" label={t('teams.tab_summary')} component={RouterLink} to={base} />
          {MEMBER_TABS.filter((x) => x !== 'apps' || appsEnabled === true).map((x) => (
            <Tab key={x} value={x} label={t(`member_summary.tab_${x}`)} component={RouterLink} to={`${base}/${x}`} />
          ))}
        </Tabs>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={3}>
          {(tab === undefined || tab === 'teams') && (
            <SummaryListCard
              title={t('member_summary.teams')}
              loading={false}
              empty={member.teams.length === 0 ? t('member_summary.teams_empty') : undefined}
            >
              {member.teams.map((team) => (
                <ListItem key={team.id} divider>
                  <ListItemText
                    primary={
                      <Link component={RouterLink} to={paths.organizationTeam(orgId, team.id)}>
                        {team.name}
                      </Link>
                    }
                  />
                </ListItem>
              ))}
            </SummaryListCard>
          )}
          {classes
            .filter((appClass) => tab === undefined || tab === `${appClass}s`)
            .map((appClass) => (
              <AccessByRoleCard
                key={appClass}
                title={t(`teams.${appClass}s`)}
                empty={member.role === 'administrator' ? t(`member_summary.${appClass}s_empty_admin`) : t(`member_summary.${appClass}s_empty`)}
                items={accessOf(appClass)}
                roleLabel={roleLabel}
              />
            ))}
          {tab === 'apps' && appsEnabled === false && <RedirectWithError to={base} message={t('invalid_id_passed_in_url')} />}
        </Stack>
      </Stack>
      <Suspense fallback={null}>
        {confirming && (
          <ConfirmDialog
            title={t('members.delete_title')}
            body={t('member_summary.delete_body', { name })}
            confirmLabel={t('members.delete_member')}
            // A refusal (e.g. cannot_delete_last_organization_admin) is toasted in English (lib/errors.ts).
            onConfirm={() => deleteMembership.mutateAsync({ organizationId: orgId, membershipId: member.membershipId })}
            success={t('members.member_deleted')}
            onSuccess={() => void navigate(isMe ? paths.organizations() : paths.organization(orgId, 'members'), { replace: true })}
            onClose={() => setConfirming(false)}
          />
        )}
      </Suspense>
    </>
  );
}
