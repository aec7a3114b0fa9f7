import { isValidEmail } from '@flotilla/model';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { looksLikeEmail } from '../lib/invitee';
import { useMutationForm } from '../lib/use-mutation-form';
import { FormDialog } from './form-dialog';
import { TextInput } from './form-fields';
import { RoleSelect, type RoleOption } from './role-select';

export interface InviteValues {
  invitee: string;
  roleName: string;
  /** Only for email invites; undefined when left empty. */
  message: string | undefined;
}

interface Props {
  title: string;
  roleOptions: readonly RoleOption[];
  /** Sends an invite to an email address; resolves to the success toast. */
  onInvite: (values: InviteValues) => Promise<string>;
  /** Adds an existing user by username; resolves to the success toast. */
  onAddByUsername: (values: { username: string; roleName: string }) => Promise<string>;
  onClose: () => void;
}

/**
 * Spec 1 §5 / spec 2 §7 invite dialog (organizations and fleets): one "Email or username"
 * field. Something that looks like an email becomes an invite (with the optional message);
 * anything else adds that existing user by username. A role is required. Server refusals
 * (already a member, already invited) are shown as a toast and the dialog stays open.
 */
export function InviteDialog({ title, roleOptions, onInvite, onAddByUsername, onClose }: Props) {
  const { t } = useTranslation();
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
  const { form, ...dialog } = useMutationForm({
    schema,
    defaultValues: { invitee: '', roleName: '', message: '' },
    submit: ({ invitee, roleName, message }) =>
      looksLikeEmail(invitee) ? onInvite({ invitee, roleName, message: message || undefined }) : onAddByUsername({ username: invitee, roleName }),
    success: (done) => done,
    onSuccess: onClose,
  });
  const isEmail = looksLikeEmail(form.watch('invitee'));

  return (
    <FormDialog form={dialog} title={title} submitLabel={t('members.invite_submit')} onClose={onClose}>
      <TextInput
        {...form.register('invitee')}
        id="invite-invitee"
        label={t('members.invitee')}
        autoComplete="off"
        autoFocus
        helperText={t('members.invitee_hint')}
        error={dialog.fieldError('invitee')}
      />
      <RoleSelect
        {...form.register('roleName')}
        id="invite-role"
        label={t('members.role')}
        placeholder={t('members.choose_role')}
        options={roleOptions}
        error={dialog.fieldError('roleName')}
      />
      {isEmail && (
        <TextInput
          {...form.register('message')}
          id="invite-message"
          label={t('members.message')}
          multiline
          minRows={2}
          error={dialog.fieldError('message')}
        />
      )}
    </FormDialog>
  );
}
