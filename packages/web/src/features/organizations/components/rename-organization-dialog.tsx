import { useTranslation } from 'react-i18next';
import { NameDialog } from '../../../components/name-dialog';
import { useRenameOrganization } from '../api/rename-organization';

/** Spec 2 §5: the rename dialog takes a string defaulting to the current name. */
export function RenameOrganizationDialog({ organization, onClose }: { organization: { id: number; name: string }; onClose: () => void }) {
  const { t } = useTranslation();
  const rename = useRenameOrganization();
  return (
    <NameDialog
      title={t('org_summary.rename_title')}
      submitLabel={t('common.rename')}
      label={t('org_summary.name')}
      inputId="rename-organization-name"
      autoComplete="organization"
      requiredMessage={t('orgs.name_required')}
      defaultName={organization.name}
      onSave={(name) => rename.mutateAsync({ id: organization.id, name })}
      success={() => t('org_summary.renamed')}
      onClose={onClose}
    />
  );
}
