import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { errorStatus } from '../../../lib/errors';
import { useNotify } from '../../../lib/notify';
import { useCreateOrganization } from '../api/create-organization';

export function CreateOrganizationDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  if (!open) return null;
  return <CreateOrganizationForm onClose={onClose} />;
}

function CreateOrganizationForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const createOrganization = useCreateOrganization();
  const schema = z.object({ name: z.string().check(z.trim(), z.minLength(1, t('orgs.name_required')), z.maxLength(100)) });
  const { register, handleSubmit, formState, setError } = useForm<z.infer<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { name: '' },
  });

  const onSubmit = handleSubmit(async ({ name }) => {
    try {
      await createOrganization.mutateAsync({ name });
      notify.success(t('orgs.created', { name }));
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
      title={t('orgs.dialog_title')}
      submitLabel={t('orgs.submit')}
      cancelLabel={t('orgs.cancel')}
      submitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <TextInput
        {...register('name')}
        id="create-organization-name"
        label={t('orgs.name')}
        autoComplete="organization"
        autoFocus
        error={formState.errors.name?.message}
      />
    </FormDialog>
  );
}
