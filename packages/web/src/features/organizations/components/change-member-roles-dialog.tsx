import { useTranslation } from 'react-i18next';
import { RoleDialog } from '../../../components/role-dialog';
import { throwIfBatchFailed } from '../../../lib/submit-mutation';
import { useChangeMemberRoles } from '../api/change-member-role';
import { useOrganizationPlan } from '../../../lib/organization-plan';
import { ORGANIZATION_ROLES, organizationRoleLabel } from '../organization-roles';

interface Props {
  organizationId: number;
  membershipIds: number[];
  onClose: () => void;
  /** Called after the batch ran (some may have failed); the page clears its selection. */
  onDone: () => void;
}

/** Batch role change (spec 1 §4): one role for every selected member, one request at a time. */
export function ChangeMemberRolesDialog({ organizationId, membershipIds, onClose, onDone }: Props) {
  const { t } = useTranslation();
  const plan = useOrganizationPlan(organizationId);
  const change = useChangeMemberRoles();
  return (
    <RoleDialog
      title={t('members.change_role_title', { count: membershipIds.length })}
      roleOptions={ORGANIZATION_ROLES.map((role) => ({
        value: role,
        // The seat price from the organization's plan; none while billing is off.
        label: organizationRoleLabel(role, t, plan),
      }))}
      onSubmit={async (roleName) => {
        const { failed, firstError } = await change.mutateAsync({ organizationId, membershipIds, roleName });
        throwIfBatchFailed({ total: membershipIds.length, failed, firstError }, (count) => t('members.operation_failed_for', { count }));
      }}
      success={() => t('members.roles_changed', { count: membershipIds.length })}
      onDone={onDone}
      onClose={onClose}
    />
  );
}
