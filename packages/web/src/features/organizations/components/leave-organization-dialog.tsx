import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useLeaveOrganization } from '../api/leave-organization';

interface Props {
  organization: { id: number; name: string };
  membershipId: number;
  onClose: () => void;
  /** Called once the membership is gone (the page leaves). */
  onLeft: () => void;
}

/** Leave an organization; a refusal (e.g. 400 cannot_delete_last_organization_admin, lib/errors.ts) is toasted. */
export function LeaveOrganizationDialog({ organization, membershipId, onClose, onLeft }: Props) {
  const { t } = useTranslation();
  const leave = useLeaveOrganization();
  return (
    <ConfirmDialog
      title={t('org_summary.leave_title')}
      body={t('org_summary.leave_body', { name: organization.name })}
      confirmLabel={t('org_summary.leave_submit')}
      onConfirm={() => leave.mutateAsync({ organizationId: organization.id, membershipId })}
      success={t('org_summary.left', { name: organization.name })}
      onSuccess={onLeft}
      onClose={onClose}
    />
  );
}
