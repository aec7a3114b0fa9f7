import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { errorStatus } from '../../../lib/errors';
import { useNotify } from '../../../lib/notify';
import { useRenameOrganization } from '../api/rename-organization';

/** Spec 2 §5: the rename dialog takes a string defaulting to the current name. */
export function RenameOrganizationDialog({ organization, onClose }: { organization: { id: number; name: string }; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const rename = useRenameOrganization();
  const schema = z.object({ name: z.string().check(z.trim(), z.minLength(1, t('orgs.name_required')), z.maxLength(100)) });
  const { register, handleSubmit, formState, setError } = useForm<z.infer<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { name: organization.name },
  });

  const onSubmit = handleSubmit(async ({ name }) => {
    if (name === organization.name) return onClose();
    try {
      await rename.mutateAsync({ id: organization.id, name });
      notify.success(t('org_summary.renamed'));
      onClose();
    } catch (err) {
      // Spec 1 §5: names are unique case-insensitively; the server answers 409.
      if (errorStatus(err) === 409) setError('name', { message: t('already_used') });
      else notify.error(err);
    }
  });

  return (
    <FormDialog
      open
      title={t('org_summary.rename_title')}
      submitLabel={t('org_summary.rename_submit')}
      cancelLabel={t('org_summary.cancel')}
      submitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <TextInput
        {...register('name')}
        id="rename-organization-name"
        label={t('org_summary.name')}
        autoComplete="organization"
        autoFocus
        error={formState.errors.name?.message}
      />
    </FormDialog>
  );
}
