import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { useMutationForm } from '../lib/use-mutation-form';
import { FormDialog } from './form-dialog';
import { RoleSelect, type RoleOption } from './role-select';

interface Props {
  title: string;
  roleOptions: readonly RoleOption[];
  /** Preselected role (e.g. the member's current one); none by default. */
  currentRole?: string;
  /** Runs the change (it rejects for a failure, which is toasted). */
  onSubmit: (roleName: string) => Promise<unknown>;
  /** The success toast for the chosen role. */
  success?: (roleName: string) => string;
  /** Once the change settled, whatever happened; closes the dialog unless given. */
  onDone?: () => void;
  onClose: () => void;
}

/** Pick one role and apply it (organization members, fleet members, team access). */
export function RoleDialog({ title, roleOptions, currentRole = '', onSubmit, success, onDone, onClose }: Props) {
  const { t } = useTranslation();
  const { form, ...dialog } = useMutationForm({
    schema: z.object({ roleName: z.string().check(z.minLength(1, t('members.role_required'))) }),
    defaultValues: { roleName: currentRole },
    submit: async ({ roleName }) => (await onSubmit(roleName), roleName),
    success,
    onSettled: onDone ?? onClose,
  });

  return (
    <FormDialog form={dialog} title={title} submitLabel={t('members.change_role_submit')} onClose={onClose}>
      <RoleSelect
        {...form.register('roleName')}
        id="change-role"
        label={t('members.new_role')}
        placeholder={t('members.choose_role')}
        options={roleOptions}
        error={dialog.fieldError('roleName')}
      />
    </FormDialog>
  );
}
