import { Button, Link, Stack, Typography } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { FullPageError } from '../../../components/full-page-status';
import { PageHeader } from '../../../components/page-header';
import { useSession } from '../../../lib/get-session';
import { useDeleteOrganizationMembership } from '../api/delete-organization-membership';
import { useOrganizationInvites, type OrganizationInvite } from '../api/get-organization-invites';
import { useOrganizationMembers, type OrganizationMember } from '../api/get-organization-members';
import { useRevokeOrganizationInvite } from '../api/revoke-organization-invite';
import { OrganizationInvitesTable } from '../components/organization-invites-table';
import { OrganizationMembersTable } from '../components/organization-members-table';
import { throwIfBatchFailed } from '../../../lib/submit-mutation';
import { paths } from '../../../lib/paths';

// Dialogs (forms, validation) load when first wanted, not with the page.
const loadInvite = () => import('../components/invite-member-dialog');
const loadRoles = () => import('../components/change-member-roles-dialog');
const loadConfirm = () => import('../../../components/confirm-dialog');
const InviteMemberDialog = lazy(async () => ({ default: (await loadInvite()).InviteMemberDialog }));
const ChangeMemberRolesDialog = lazy(async () => ({ default: (await loadRoles()).ChangeMemberRolesDialog }));
const ConfirmDialog = lazy(async () => ({ default: (await loadConfirm()).ConfirmDialog }));


type Dialog =
  | { kind: 'invite' }
  | { kind: 'roles' }
  | { kind: 'delete'; member: OrganizationMember }
  | { kind: 'revoke'; invites: OrganizationInvite[] }
  | null;

interface MembersPageProps {
  organization: { id: number; name: string };
  myMembershipId: number | undefined;
  isAdmin: boolean;
}

export function OrganizationMembersPage({ organization, myMembershipId, isAdmin }: MembersPageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const members = useOrganizationMembers(organization.id);
  // Only administrators may read invites; others are not asked.
  const invites = useOrganizationInvites(organization.id, isAdmin);
  const deleteMembership = useDeleteOrganizationMembership();
  const revoke = useRevokeOrganizationInvite();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [selectedMembers, setSelectedMembers] = useState<Set<number>>(new Set());
  const [selectedInvites, setSelectedInvites] = useState<Set<number>>(new Set());
  const close = () => setDialog(null);

  // A refusal (e.g. 400 cannot_delete_last_organization_admin) is toasted in English (lib/errors.ts).
  const confirmDelete = async (member: OrganizationMember) => {
    await deleteMembership.mutateAsync({ organizationId: organization.id, membershipId: member.membershipId });
    setSelectedMembers((s) => new Set([...s].filter((x) => x !== member.membershipId)));
  };
  const afterDelete = (member: OrganizationMember) => {
    if (member.membershipId === myMembershipId) void navigate(paths.organizations(), { replace: true });
  };

  // Batch revoke, one at a time; a partial failure says how many failed.
  const confirmRevoke = async (list: OrganizationInvite[]) => {
    let failed = 0;
    let firstError: unknown;
    for (const invite of list) {
      try {
        await revoke.mutateAsync({ organizationId: organization.id, inviteId: invite.id });
      } catch (err) {
        failed += 1;
        firstError ??= err;
      }
    }
    setSelectedInvites(new Set());
    throwIfBatchFailed({ total: list.length, failed, firstError }, (count) => t('members.operation_failed_for', { count }));
  };

  const selectedInviteList = (invites.data ?? []).filter((i) => selectedInvites.has(i.id));

  return (
    <>
      <PageHeader
        title={t('members.page_title', { name: organization.name })}
        actions={
          isAdmin ? (
            <Button variant="contained" onClick={() => setDialog({ kind: 'invite' })} onPointerEnter={() => void loadInvite()}>
              {t('members.invite')}
            </Button>
          ) : undefined
        }
      />
      <Stack spacing={3}>
        <Link component={RouterLink} to={paths.organization(organization.id)} sx={{ alignSelf: 'flex-start' }}>
          {t('members.back_to_summary')}
        </Link>
        {!isAdmin && <Typography color="text.secondary">{t('members.admins_only')}</Typography>}
        <Stack component="section" aria-label={t('members.title')} spacing={1}>
          <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
            <Typography variant="h6" component="h2">
              {t('members.title')}
            </Typography>
            {isAdmin && (
              <Button
                variant="outlined"
                disabled={selectedMembers.size === 0}
                onClick={() => setDialog({ kind: 'roles' })}
                onPointerEnter={() => void loadRoles()}
              >
                {t('members.change_role')}
              </Button>
            )}
          </Stack>
          {members.isError ? (
            <FullPageError message={t('org_summary.members_failed')} onRetry={() => void members.refetch()} />
          ) : (
            <OrganizationMembersTable
              organizationId={organization.id}
              members={members.data}
              loading={members.isPending}
              currentUserId={session.data?.id}
              canManage={isAdmin}
              selected={selectedMembers}
              onSelectedChange={setSelectedMembers}
              onDelete={(member) => setDialog({ kind: 'delete', member })}
            />
          )}
        </Stack>
        {isAdmin && (
          <Stack component="section" aria-label={t('members.invites')} spacing={1}>
            <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
              <Typography variant="h6" component="h2">
                {t('members.invites')}
              </Typography>
              <Button
                variant="outlined"
                color="error"
                disabled={selectedInviteList.length === 0}
                onClick={() => setDialog({ kind: 'revoke', invites: selectedInviteList })}
                onPointerEnter={() => void loadConfirm()}
              >
                {t('members.revoke_selected')}
              </Button>
            </Stack>
            {invites.isError ? (
              <FullPageError message={t('members.invites_failed')} onRetry={() => void invites.refetch()} />
            ) : invites.data?.length === 0 ? (
              <Typography color="text.secondary">{t('members.invites_empty')}</Typography>
            ) : (
              <OrganizationInvitesTable
                invites={invites.data}
                loading={invites.isPending}
                selected={selectedInvites}
                onSelectedChange={setSelectedInvites}
                onRevoke={(invite) => setDialog({ kind: 'revoke', invites: [invite] })}
              />
            )}
          </Stack>
        )}
      </Stack>
      <Suspense fallback={null}>
        {dialog?.kind === 'invite' && <InviteMemberDialog organizationId={organization.id} onClose={close} />}
        {dialog?.kind === 'roles' && (
          <ChangeMemberRolesDialog
            organizationId={organization.id}
            membershipIds={[...selectedMembers]}
            onClose={close}
            onDone={() => {
              setSelectedMembers(new Set());
              close();
            }}
          />
        )}
        {dialog?.kind === 'delete' && (
          <ConfirmDialog
            title={t('members.delete_title')}
            body={t('members.delete_body', {
              name: dialog.member.username ?? t('org_summary.user_fallback', { id: dialog.member.userId }),
              organization: organization.name,
            })}
            confirmLabel={t('members.delete_member')}
            onConfirm={() => confirmDelete(dialog.member)}
            success={t('members.member_deleted')}
            onSuccess={() => afterDelete(dialog.member)}
            onClose={close}
          />
        )}
        {dialog?.kind === 'revoke' && (
          <ConfirmDialog
            title={t('members.revoke_title', { count: dialog.invites.length })}
            body={t('members.revoke_body', { count: dialog.invites.length, invitee: dialog.invites[0]?.invitee ?? '' })}
            confirmLabel={t('common.revoke')}
            onConfirm={() => confirmRevoke(dialog.invites)}
            success={t('members.invites_revoked', { count: dialog.invites.length })}
            onClose={close}
          />
        )}
      </Suspense>
    </>
  );
}
