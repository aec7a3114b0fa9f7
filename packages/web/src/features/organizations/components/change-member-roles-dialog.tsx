import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog';
import { SelectInput } from '../../../components/form-fields';
import { useNotify } from '../../../lib/notify';
import { useChangeMemberRoles } from '../api/change-member-role';
import { formatSeatPrice, ORGANIZATION_ROLES } from '../seat-price';

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
  const notify = useNotify();
  const change = useChangeMemberRoles();
  const { register, handleSubmit, formState, setError } = useForm<{ roleName: string }>({ defaultValues: { roleName: '' } });

  const onSubmit = handleSubmit(async ({ roleName }) => {
    if (!roleName) return setError('roleName', { message: t('members.role_required') });
    const { failed, firstError } = await change.mutateAsync({ organizationId, membershipIds, roleName });
    if (failed === 0) notify.success(t('members.roles_changed', { count: membershipIds.length }));
    else if (membershipIds.length === 1) notify.error(firstError);
    else notify.error(t('members.operation_failed_for', { count: failed }));
    onDone();
  });

  return (
    <FormDialog
      open
      title={t('members.change_role_title', { count: membershipIds.length })}
      submitLabel={t('members.change_role_submit')}
      cancelLabel={t('members.cancel')}
      submitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <SelectInput {...register('roleName')} id="change-role" label={t('members.new_role')} error={formState.errors.roleName?.message}>
        <option value="" disabled>
          {t('members.choose_role')}
        </option>
        {ORGANIZATION_ROLES.map((role) => (
          <option key={role} value={role}>
            {t('members.role_with_price', { role: t(`orgs.role_${role}`), price: formatSeatPrice(role) })}
          </option>
        ))}
      </SelectInput>
    </FormDialog>
  );
}
