import { useTranslation } from 'react-i18next';
import { NameDialog } from '../../../components/name-dialog';
import { useCreateOrganization } from '../api/create-organization';

export function CreateOrganizationDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  if (!open) return null;
  return <CreateOrganizationForm onClose={onClose} />;
}

function CreateOrganizationForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const createOrganization = useCreateOrganization();
  return (
    <NameDialog
      title={t('orgs.dialog_title')}
      submitLabel={t('orgs.submit')}
      label={t('orgs.name')}
      inputId="create-organization-name"
      autoComplete="organization"
      requiredMessage={t('orgs.name_required')}
      onSave={(name) => createOrganization.mutateAsync({ name })}
      success={(name) => t('orgs.created', { name })}
      onClose={onClose}
    />
  );
}
