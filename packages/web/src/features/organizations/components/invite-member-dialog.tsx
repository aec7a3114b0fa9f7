import { zodResolver } from '@hookform/resolvers/zod';
import { isValidEmail } from '@flotilla/model';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { SelectInput, TextInput } from '../../../components/form-fields';
import { useNotify } from '../../../lib/notify';
import { useAddOrganizationMember } from '../api/add-organization-member';
import { useCreateOrganizationInvite } from '../api/create-organization-invite';
import { formatSeatPrice, looksLikeEmail, ORGANIZATION_ROLES } from '../seat-price';


/**
 * Spec 1 §2/§5 invite dialog: one "Email or username" field. Something that looks like an
 * email becomes an invite (with the optional message); anything else adds that existing
 * user by username. A role is required; each option shows its monthly seat price.
 */
export function InviteMemberDialog({ organizationId, onClose }: { organizationId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const invite = useCreateOrganizationInvite();
  const add = useAddOrganizationMember();
  const schema = z.object({
    invitee: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, t('members.invitee_required')),
        z.refine((v) => !looksLikeEmail(v) || isValidEmail(v), t('errors.invalid_email')),
      ),
    roleName: z.string().check(z.minLength(1, t('members.role_required'))),
    message: z.string().check(z.trim(), z.maxLength(1000)),
  });
  const { register, handleSubmit, formState, watch } = useForm<z.infer<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { invitee: '', roleName: '', message: '' },
  });
  const isEmail = looksLikeEmail(watch('invitee'));

  const onSubmit = handleSubmit(async ({ invitee, roleName, message }) => {
    try {
      if (looksLikeEmail(invitee)) {
        await invite.mutateAsync({ organizationId, invitee, roleName, message: message || undefined });
        notify.success(t('members.invited', { invitee }));
      } else {
        await add.mutateAsync({ organizationId, username: invitee, roleName });
        notify.success(t('members.member_added', { username: invitee }));
      }
      onClose();
    } catch (err) {
      // invalid_email, invitee_already_exist, invitee_already_invited → English (lib/errors.ts).
      notify.error(err);
    }
  });

  return (
    <FormDialog
      open
      title={t('members.invite_title')}
      submitLabel={t('members.invite_submit')}
      cancelLabel={t('members.cancel')}
      submitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <TextInput
        {...register('invitee')}
        id="invite-invitee"
        label={t('members.invitee')}
        autoComplete="off"
        autoFocus
        helperText={t('members.invitee_hint')}
        error={formState.errors.invitee?.message}
      />
      <SelectInput {...register('roleName')} id="invite-role" label={t('members.role')} error={formState.errors.roleName?.message}>
        <option value="" disabled>
          {t('members.choose_role')}
        </option>
        {ORGANIZATION_ROLES.map((role) => (
          <option key={role} value={role}>
            {t('members.role_with_price', { role: t(`orgs.role_${role}`), price: formatSeatPrice(role) })}
          </option>
        ))}
      </SelectInput>
      {isEmail && (
        <TextInput
          {...register('message')}
          id="invite-message"
          label={t('members.message')}
          multiline
          minRows={2}
          error={formState.errors.message?.message}
        />
      )}
    </FormDialog>
  );
}
