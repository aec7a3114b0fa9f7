import { SSH_KEY_TITLE_REQUIRED, validateSshKey } from '@flotilla/model';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { useNotify } from '../../../lib/notify';
import { useAddSshKey, useImportSshKeys } from '../api/ssh-keys';

/** Add a key by hand (spec 1 §5): trimmed, title and key mandatory, the key pattern; the server checks the same. */
export function AddSshKeyDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const add = useAddSshKey();
  const [title, setTitle] = useState('');
  const [key, setKey] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const valid = validateSshKey(title, key);
    if ('error' in valid) {
      setProblem(valid.error);
      return;
    }
    setProblem(null);
    try {
      await add.mutateAsync({ title: valid.title, publicKey: valid.publicKey });
      notify.success(t('preferences.ssh.added', { title: valid.title }));
      onClose();
    } catch (err) {
      notify.error(err);
    }
  };

  return (
    <FormDialog
      open
      title={t('preferences.ssh.add_title')}
      submitLabel={t('preferences.ssh.save')}
      cancelLabel={t('preferences.ssh.cancel')}
      submitting={add.isPending}
      onSubmit={(e) => void onSubmit(e)}
      onClose={onClose}
    >
      <TextInput
        id="ssh-key-title"
        label={t('preferences.ssh.key_title')}
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        autoComplete="off"
        autoFocus
        error={problem === SSH_KEY_TITLE_REQUIRED ? problem : undefined}
      />
      <TextInput
        id="ssh-key-public-key"
        label={t('preferences.ssh.key')}
        value={key}
        onChange={(e) => setKey(e.target.value)}
        autoComplete="off"
        multiline
        minRows={4}
        helperText={t('preferences.ssh.key_help')}
        error={problem !== null && problem !== SSH_KEY_TITLE_REQUIRED ? problem : undefined}
        inputProps={{ spellCheck: false, style: { fontFamily: 'monospace' } }}
      />
    </FormDialog>
  );
}

/** Import a code-host user's public keys: the server fetches and saves the ones not saved yet. */
export function ImportSshKeysDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const importKeys = useImportSshKeys();
  const [username, setUsername] = useState('');
  const [problem, setProblem] = useState<string | undefined>();

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (username.trim() === '') {
      setProblem(t('preferences.ssh.username_required'));
      return;
    }
    setProblem(undefined);
    try {
      const created = await importKeys.mutateAsync(username.trim());
      notify.success(t('preferences.ssh.imported', { count: created.length }));
      onClose();
    } catch (err) {
      notify.error(err);
    }
  };

  return (
    <FormDialog
      open
      title={t('preferences.ssh.import')}
      submitLabel={t('preferences.ssh.import_submit')}
      cancelLabel={t('preferences.ssh.cancel')}
      submitting={importKeys.isPending}
      onSubmit={(e) => void onSubmit(e)}
      onClose={onClose}
    >
      <TextInput
        id="ssh-import-username"
        label={t('preferences.ssh.import_username')}
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        autoComplete="off"
        autoFocus
        helperText={t('preferences.ssh.import_help')}
        error={problem}
      />
    </FormDialog>
  );
}
