import { useTranslation } from 'react-i18next';
import { TypeToConfirmDialog } from '../../../components/type-to-confirm-dialog';
import { useDeleteOrganization } from '../api/delete-organization';

interface Props {
  organization: { id: number; name: string };
  onClose: () => void;
  /** Called once the organization is gone (the page leaves). */
  onDeleted: () => void;
}

/** Spec 2 §5 destructive confirmation: type the organization's name; paste is blocked. */
export function DeleteOrganizationDialog({ organization, onClose, onDeleted }: Props) {
  const { t } = useTranslation();
  const remove = useDeleteOrganization();
  return (
    <TypeToConfirmDialog
      title={t('org_summary.delete_title')}
      warning={t('org_summary.delete_warning', { name: organization.name })}
      expected={organization.name}
      label={t('org_summary.delete_confirm_label')}
      hint={t('org_summary.delete_confirm_hint', { name: organization.name })}
      emptyHint={t('org_summary.all_fields_required')}
      submitLabel={t('org_summary.delete_submit')}
      inputId="delete-organization-confirm"
      onConfirm={() => remove.mutateAsync({ id: organization.id })}
      success={t('org_summary.deleted', { name: organization.name })}
      onSuccess={onDeleted}
      onClose={onClose}
    />
  );
}
