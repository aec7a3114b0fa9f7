import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from './form-dialog';
import { RoleSelect, type RoleOption } from './role-select';

interface Props {
  title: string;
  roleOptions: readonly RoleOption[];
  /** Preselected role (e.g. the member's current one); none by default. */
  currentRole?: string;
  /** Runs the change; the caller toasts and closes. */
  onSubmit: (roleName: string) => Promise<void>;
  onClose: () => void;
}

/** Pick one role and apply it (organization members, fleet members, team access). */
export function RoleDialog({ title, roleOptions, currentRole = '', onSubmit, onClose }: Props) {
  const { t } = useTranslation();
  const { register, handleSubmit, formState, setError } = useForm<{ roleName: string }>({ defaultValues: { roleName: currentRole } });

  const submit = handleSubmit(async ({ roleName }) => {
    if (!roleName) return setError('roleName', { message: t('members.role_required') });
    await onSubmit(roleName);
  });

  return (
    <FormDialog
      open
      title={title}
      submitLabel={t('members.change_role_submit')}
      cancelLabel={t('members.cancel')}
      submitting={formState.isSubmitting}
      onSubmit={submit}
      onClose={onClose}
    >
      <RoleSelect
        {...register('roleName')}
        id="change-role"
        label={t('members.new_role')}
        placeholder={t('members.choose_role')}
        options={roleOptions}
        error={formState.errors.roleName?.message}
      />
    </FormDialog>
  );
}
