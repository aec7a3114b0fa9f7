import { Button, Stack, Typography } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FullPageError } from '../../../components/full-page-status';
import { PermissionTooltip } from '../../../components/permission-tooltip';
import { useFleetInvites, type FleetInvite } from '../api/get-fleet-invites';
import { useFleetMembers, type FleetMember } from '../api/get-fleet-members';
import {
  useAddFleetMember,
  useChangeFleetMemberRole,
  useInviteToFleet,
  useRemoveFleetMember,
  useRevokeFleetInvite,
} from '../api/fleet-member-mutations';
import { FleetInvitesTable } from '../components/fleet-invites-table';
import { FleetMembersTable } from '../components/fleet-members-table';
import { useOrganizationPlan } from '../../../lib/organization-plan';
import { fleetRoleLabel, fleetRoleOptions } from '../fleet-roles';

// Dialogs (forms, validation) load when first wanted, not with the page.
const loadInvite = () => import('../../../components/invite-dialog');
const loadRole = () => import('../../../components/role-dialog');
const loadConfirm = () => import('../../../components/confirm-dialog');
const InviteDialog = lazy(async () => ({ default: (await loadInvite()).InviteDialog }));
const RoleDialog = lazy(async () => ({ default: (await loadRole()).RoleDialog }));
const ConfirmDialog = lazy(async () => ({ default: (await loadConfirm()).ConfirmDialog }));

type Dialog =
  | { kind: 'add' }
  | { kind: 'role' | 'remove'; member: FleetMember }
  | { kind: 'revoke'; invite: FleetInvite }
  | null;


interface PageProps {
  fleetId: number;
  fleetName: string;
  organizationId: number;
  canManage: boolean;
}

export function FleetMembersPage({ fleetId, fleetName, organizationId, canManage }: PageProps) {
  const { t } = useTranslation();
  const members = useFleetMembers(fleetId, organizationId);
  // Only fleet administrators may read invites; others are not asked.
  const invites = useFleetInvites(fleetId, canManage);
  const invite = useInviteToFleet();
  const add = useAddFleetMember();
  const changeRole = useChangeFleetMemberRole();
  const remove = useRemoveFleetMember();
  const revoke = useRevokeFleetInvite();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const plan = useOrganizationPlan(organizationId);
  const roleOptions = fleetRoleOptions(t, plan?.limits ?? null);
  const name = (m: FleetMember) => m.username ?? t('org_summary.user_fallback', { id: m.userId });

  return (
    <>
      <Stack component="section" aria-label={t('fleet_members.title')} spacing={1}>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography variant="h6" component="h2">
            {t('fleet_members.title')}
          </Typography>
          <PermissionTooltip allowed={canManage}>
            <Button variant="contained" disabled={!canManage} onClick={() => setDialog({ kind: 'add' })} onPointerEnter={() => void loadInvite()}>
              {t('fleet_members.add')}
            </Button>
          </PermissionTooltip>
        </Stack>
        {members.isError ? (
          <FullPageError message={t('fleet_members.load_failed')} onRetry={() => void members.refetch()} />
        ) : members.data?.length === 0 ? (
          <Typography color="text.secondary">{t('fleet_members.empty')}</Typography>
        ) : (
          <FleetMembersTable
            organizationId={organizationId}
            members={members.data}
            loading={members.isPending}
            canManage={canManage}
            onChangeRole={(member) => setDialog({ kind: 'role', member })}
            onRemove={(member) => setDialog({ kind: 'remove', member })}
          />
        )}
      </Stack>
      {canManage && (
        <Stack component="section" aria-label={t('fleet_members.invites')} spacing={1} sx={{ mt: 3 }}>
          <Typography variant="h6" component="h2">
            {t('fleet_members.invites')}
          </Typography>
          {invites.isError ? (
            <FullPageError message={t('fleet_members.invites_failed')} onRetry={() => void invites.refetch()} />
          ) : invites.data?.length === 0 ? (
            <Typography color="text.secondary">{t('fleet_members.invites_empty')}</Typography>
          ) : (
            <FleetInvitesTable invites={invites.data} loading={invites.isPending} onRevoke={(i) => setDialog({ kind: 'revoke', invite: i })} />
          )}
        </Stack>
      )}
      <Suspense fallback={null}>
        {dialog?.kind === 'add' && (
          <InviteDialog
            title={t('fleet_members.add_title')}
            roleOptions={roleOptions}
            onInvite={async ({ invitee, roleName, message }) => {
              const messages = { alreadyMember: t('fleet_members.already_member'), alreadyInvited: t('fleet_members.already_invited') };
              await invite.mutateAsync({ fleetId, invitee, roleName, message, messages });
              return t('fleet_members.invited', { invitee });
            }}
            onAddByUsername={async ({ username, roleName }) => {
              await add.mutateAsync({ fleetId, username, roleName });
              return t('fleet_members.member_added', { username });
            }}
            onClose={close}
          />
        )}
        {dialog?.kind === 'role' && (
          <RoleDialog
            title={t('fleet_members.change_role_title', { name: name(dialog.member) })}
            roleOptions={roleOptions}
            currentRole={dialog.member.role}
            onSubmit={(roleName) => changeRole.mutateAsync({ fleetId, membershipId: dialog.member.id, roleName })}
            success={(roleName) => t('fleet_members.role_changed', { name: name(dialog.member), role: fleetRoleLabel(roleName, t) })}
            onClose={close}
          />
        )}
        {dialog?.kind === 'remove' && (
          <ConfirmDialog
            title={t('fleet_members.remove_title')}
            body={t('fleet_members.remove_body', { name: name(dialog.member), fleet: fleetName })}
            confirmLabel={t('common.remove')}
            onConfirm={() => remove.mutateAsync({ fleetId, membershipId: dialog.member.id })}
            success={t('fleet_members.removed', { name: name(dialog.member) })}
            onClose={close}
          />
        )}
        {dialog?.kind === 'revoke' && (
          <ConfirmDialog
            title={t('fleet_members.revoke_title')}
            body={t('fleet_members.revoke_body', { invitee: dialog.invite.invitee })}
            confirmLabel={t('common.revoke')}
            onConfirm={() => revoke.mutateAsync({ fleetId, inviteId: dialog.invite.id })}
            success={t('fleet_members.revoked', { invitee: dialog.invite.invitee })}
            onClose={close}
          />
        )}
      </Suspense>
    </>
  );
}
