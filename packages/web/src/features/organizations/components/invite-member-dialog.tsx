import { useTranslation } from 'react-i18next';
import { InviteDialog } from '../../../components/invite-dialog';
import { useAddOrganizationMember } from '../api/add-organization-member';
import { useCreateOrganizationInvite } from '../api/create-organization-invite';
import { useOrganizationPlan } from '../../../lib/organization-plan';
import { ORGANIZATION_ROLES, organizationRoleLabel } from '../organization-roles';

/** Spec 1 §2/§5: invite to an organization by email, or add an existing user by username; each role shows its monthly seat price. */
export function InviteMemberDialog({ organizationId, onClose }: { organizationId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const plan = useOrganizationPlan(organizationId);
  const invite = useCreateOrganizationInvite();
  const add = useAddOrganizationMember();
  return (
    <InviteDialog
      title={t('members.invite_title')}
      roleOptions={ORGANIZATION_ROLES.map((role) => ({
        value: role,
        // The seat price from the organization's plan; none while billing is off.
        label: organizationRoleLabel(role, t, plan),
      }))}
      onInvite={async ({ invitee, roleName, message }) => {
        // invalid_email, invitee_already_exist, invitee_already_invited → English (lib/errors.ts).
        await invite.mutateAsync({ organizationId, invitee, roleName, message });
        return t('members.invited', { invitee });
      }}
      onAddByUsername={async ({ username, roleName }) => {
        await add.mutateAsync({ organizationId, username, roleName });
        return t('members.member_added', { username });
      }}
      onClose={onClose}
    />
  );
}
