import { Button, Stack, Typography } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { useInstallConfig } from '../../../lib/dashboard-config';
import { useSession } from '../../../lib/get-session';
import { type OrganizationDetails as Organization } from '../api/get-organization';
import { useOrganizationFleets } from '../api/get-organization-fleets';
import { useOrganizationMembers } from '../api/get-organization-members';
import { OrganizationDetails } from '../components/organization-details';
import { OrganizationFleetsList } from '../components/organization-fleets-list';
import { OrganizationMembersList } from '../components/organization-members-list';
import { paths } from '../../../lib/paths';

// Dialogs (forms, validation) load when first wanted, not with the page.
const loadRename = () => import('../components/rename-organization-dialog');
const loadLogo = () => import('../components/organization-logo-dialog');
const loadDelete = () => import('../components/delete-organization-dialog');
const loadLeave = () => import('../components/leave-organization-dialog');
const RenameOrganizationDialog = lazy(async () => ({ default: (await loadRename()).RenameOrganizationDialog }));
const OrganizationLogoDialog = lazy(async () => ({ default: (await loadLogo()).OrganizationLogoDialog }));
const DeleteOrganizationDialog = lazy(async () => ({ default: (await loadDelete()).DeleteOrganizationDialog }));
const LeaveOrganizationDialog = lazy(async () => ({ default: (await loadLeave()).LeaveOrganizationDialog }));


type Dialog = 'rename' | 'logo' | 'delete' | 'leave' | null;

interface SummaryProps {
  organization: Organization;
  membership: { id: number; role: string | null } | null;
  isAdmin: boolean;
}

export function OrganizationSummaryPage({ organization, membership, isAdmin }: SummaryProps) {
  const { t } = useTranslation();
  const { billing } = useInstallConfig();
  const navigate = useNavigate();
  const session = useSession();
  const members = useOrganizationMembers(organization.id);
  const fleets = useOrganizationFleets(organization.id);
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const backToList = () => void navigate(paths.organizations(), { replace: true });

  const adminCount = members.data?.filter((m) => m.role === 'administrator').length;
  // Spec 1 §6: the sole administrator cannot leave (the server refuses it too).
  const soleAdmin = isAdmin && adminCount !== undefined && adminCount <= 1;
  const leaveHelpId = `organization-${organization.id}-leave-help`;

  return (
    <>
      <PageHeader
        title={organization.name}
        actions={
          isAdmin ? (
            <>
              <Button variant="outlined" onClick={() => setDialog('rename')} onPointerEnter={() => void loadRename()}>
                {t('common.rename')}
              </Button>
              <Button variant="outlined" onClick={() => setDialog('logo')} onPointerEnter={() => void loadLogo()}>
                {t('org_summary.edit_logo')}
              </Button>
            </>
          ) : undefined
        }
      />
      <Stack spacing={3}>
        <OrganizationDetails organization={organization} role={membership?.role} />
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={3}>
          <OrganizationMembersList
            members={members.data}
            loading={members.isPending}
            failed={members.isError}
            currentUserId={session.data?.id}
          />
          <OrganizationFleetsList fleets={fleets.data} loading={fleets.isPending} failed={fleets.isError} />
        </Stack>
        <Stack component="section" aria-label={t('org_summary.actions')} spacing={1} sx={{ alignItems: 'flex-start' }}>
          {!isAdmin && <Typography color="text.secondary">{t('org_summary.admins_only')}</Typography>}
          <Stack direction="row" spacing={2}>
            <Button variant="outlined" component={RouterLink} to={paths.organization(organization.id, 'members')}>
              {t('org_summary.manage_members')}
            </Button>
            <Button variant="outlined" component={RouterLink} to={paths.organization(organization.id, 'teams')}>
              {t('org_summary.manage_teams')}
            </Button>
            {/* Spec 1 §2: the organization's fleets and blocks lists. */}
            <Button variant="outlined" component={RouterLink} to={paths.organization(organization.id, 'fleets')}>
              {t('fleets.org_link_fleet')}
            </Button>
            <Button variant="outlined" component={RouterLink} to={paths.organization(organization.id, 'blocks')}>
              {t('fleets.org_link_block')}
            </Button>
            {/* Spec 3 §6: the billing entry only for those with billing access, where billing exists. */}
            {isAdmin && billing && (
              <Button variant="outlined" component={RouterLink} to={paths.organization(organization.id, 'billing')}>
                {t('org_summary.billing_link')}
              </Button>
            )}
            {/* Spec 3 §6: the credits entry only for those with billing access, where billing exists. */}
            {isAdmin && billing && (
              <Button variant="outlined" component={RouterLink} to={paths.organization(organization.id, 'credits')}>
                {t('org_summary.credits_link')}
              </Button>
            )}
            {/* Issue 19: what provider staff read of the organization's data, for its administrators. */}
            {isAdmin && (
              <Button variant="outlined" component={RouterLink} to={paths.organization(organization.id, 'staff-access')}>
                {t('org_summary.staff_access_link')}
              </Button>
            )}
            {membership && (
              <Button
                variant="outlined"
                color="warning"
                disabled={soleAdmin || members.isPending}
                aria-describedby={soleAdmin ? leaveHelpId : undefined}
                onClick={() => setDialog('leave')}
                onPointerEnter={() => void loadLeave()}
              >
                {t('org_summary.leave')}
              </Button>
            )}
            {isAdmin && (
              <Button variant="contained" color="error" onClick={() => setDialog('delete')} onPointerEnter={() => void loadDelete()}>
                {t('org_summary.delete')}
              </Button>
            )}
          </Stack>
          {soleAdmin && (
            <Typography id={leaveHelpId} variant="body2" color="text.secondary">
              {t('org_summary.last_admin_cannot_leave')}
            </Typography>
          )}
        </Stack>
      </Stack>
      <Suspense fallback={null}>
        {dialog === 'rename' && <RenameOrganizationDialog organization={organization} onClose={close} />}
        {dialog === 'logo' && <OrganizationLogoDialog organization={organization} onClose={close} />}
        {dialog === 'delete' && <DeleteOrganizationDialog organization={organization} onClose={close} onDeleted={backToList} />}
        {dialog === 'leave' && membership && (
          <LeaveOrganizationDialog organization={organization} membershipId={membership.id} onClose={close} onLeft={backToList} />
        )}
      </Suspense>
    </>
  );
}
