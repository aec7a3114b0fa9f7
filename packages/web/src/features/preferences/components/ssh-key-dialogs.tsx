import { SSH_KEY_TITLE_REQUIRED, validateSshKey } from '@flotilla/model';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { requiredText } from '../../../lib/form-rules';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { useAddSshKey, useImportSshKeys } from '../api/ssh-keys';

/** The model's key rule (spec 1 §5), its message under the field it is about. */
const sshKeySchema = z.object({ title: z.string().check(z.trim()), publicKey: z.string().check(z.trim()) }).check(
  z.superRefine((v, ctx) => {
    const valid = validateSshKey(v.title, v.publicKey);
    if ('error' in valid) ctx.addIssue({ code: 'custom', message: valid.error, input: v, path: [valid.error === SSH_KEY_TITLE_REQUIRED ? 'title' : 'publicKey'] });
  }),
);

/** Add a key by hand (spec 1 §5): trimmed, title and key mandatory, the key pattern; the server checks the same. */
export function AddSshKeyDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const add = useAddSshKey();
  const { form, ...dialog } = useMutationForm({
    schema: sshKeySchema,
    defaultValues: { title: '', publicKey: '' },
    submit: async (key) => (await add.mutateAsync(key), key),
    success: (key) => t('preferences.ssh.added', { title: key.title }),
    onSuccess: onClose,
  });

  return (
    <FormDialog form={dialog} title={t('preferences.ssh.add_title')} submitLabel={t('common.save')} onClose={onClose}>
      <TextInput {...form.register('title')} id="ssh-key-title" label={t('preferences.ssh.key_title')} autoComplete="off" autoFocus error={dialog.fieldError('title')} />
      <TextInput
        {...form.register('publicKey')}
        id="ssh-key-public-key"
        label={t('preferences.ssh.key')}
        autoComplete="off"
        multiline
        minRows={4}
        helperText={t('preferences.ssh.key_help')}
        error={dialog.fieldError('publicKey')}
        inputProps={{ spellCheck: false, style: { fontFamily: 'monospace' } }}
      />
    </FormDialog>
  );
}

/** Import a code-host user's public keys: the server fetches and saves the ones not saved yet. */
export function ImportSshKeysDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const importKeys = useImportSshKeys();
  const { form, ...dialog } = useMutationForm({
    schema: z.object({ username: requiredText(t('preferences.ssh.username_required')) }),
    defaultValues: { username: '' },
    submit: ({ username }) => importKeys.mutateAsync(username),
    success: (created) => t('preferences.ssh.imported', { count: created.length }),
    onSuccess: onClose,
  });

  return (
    <FormDialog form={dialog} title={t('preferences.ssh.import')} submitLabel={t('preferences.ssh.import_submit')} onClose={onClose}>
      <TextInput
        {...form.register('username')}
        id="ssh-import-username"
        label={t('preferences.ssh.import_username')}
        autoComplete="off"
        autoFocus
        helperText={t('preferences.ssh.import_help')}
        error={dialog.fieldError('username')}
      />
    </FormDialog>
  );
}
