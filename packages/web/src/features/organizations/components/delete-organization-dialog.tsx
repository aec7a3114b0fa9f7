import { Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { useNotify } from '../../../lib/notify';
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
  const notify = useNotify();
  const remove = useDeleteOrganization();
  const [typed, setTyped] = useState('');
  const matches = typed === organization.name;

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!matches) return;
    try {
      await remove.mutateAsync({ id: organization.id });
      notify.success(t('org_summary.deleted', { name: organization.name }));
      onDeleted();
    } catch (err) {
      notify.error(err);
    }
  };

  const blocked = (e: { preventDefault: () => void }) => e.preventDefault();
  return (
    <FormDialog
      open
      title={t('org_summary.delete_title')}
      submitLabel={t('org_summary.delete_submit')}
      cancelLabel={t('org_summary.cancel')}
      submitting={remove.isPending}
      submitDisabled={!matches}
      onSubmit={(e) => void onSubmit(e)}
      onClose={onClose}
    >
      <Typography>{t('org_summary.delete_warning', { name: organization.name })}</Typography>
      <TextInput
        id="delete-organization-confirm"
        label={t('org_summary.delete_confirm_label')}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        onPaste={blocked}
        onDrop={blocked}
        autoComplete="off"
        autoFocus
        helperText={typed === '' ? t('org_summary.all_fields_required') : t('org_summary.delete_confirm_hint', { name: organization.name })}
      />
    </FormDialog>
  );
}
