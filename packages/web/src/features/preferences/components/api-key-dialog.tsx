import { Alert, Button, Stack } from '@mui/material';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ExpiryField } from '../../../components/expiry-field';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { DEFAULT_KEY_EXPIRY, keyFormSchema } from '../../../lib/key-expiry';
import { useNotify } from '../../../lib/notify';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { useCreateUserApiKey, useUpdateUserApiKey, type UserApiKey } from '../api/api-keys';

interface Props {
  /** The key being edited; absent to create one. */
  editing?: UserApiKey;
  runSensitive: RunSensitive;
  onClose: () => void;
}

/** Runs a sensitive action (spec 1 §4), re-verifying the user's identity first when needed. */
export type RunSensitive = <T>(action: () => Promise<T>) => Promise<T>;

/**
 * Create or edit a named API key (spec 1 §4, §5): name required, optional description,
 * expiry preset / custom (not in the past) / never (warning). Once created the key is shown
 * this one time, with the copy-or-download warning, and the form is disabled.
 */
export function ApiKeyDialog({ editing, runSensitive, onClose }: Props) {
  const { t } = useTranslation();
  const notify = useNotify();
  const create = useCreateUserApiKey();
  const update = useUpdateUserApiKey();
  const [created, setCreated] = useState<string | null>(null);
  const { form, ...dialog } = useMutationForm({
    schema: keyFormSchema(t('preferences.tokens.name_required'), (e) => t(`key_expiry.${e}`)),
    defaultValues: { name: editing?.name ?? '', description: editing?.description ?? '', expiry: editing ? { choice: 'keep', custom: '' } : DEFAULT_KEY_EXPIRY },
    submit: async ({ name, description, expiry }) => {
      const input = { name, description: description ?? null, expiryDate: expiry };
      if (editing) await update.mutateAsync({ id: editing.id, input });
      else setCreated(await runSensitive(() => create.mutateAsync(input)));
      return name;
    },
    success: (name) => (editing ? t('preferences.tokens.saved', { name }) : undefined),
    onSuccess: () => editing && onClose(),
  });
  const locked = dialog.submitting || created !== null;

  const download = () => {
    const url = URL.createObjectURL(new Blob([`${created ?? ''}\n`], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${form.getValues('name').trim().replace(/[^\w.-]+/g, '_') || 'api-key'}.txt`;
    a.click();
    URL.revokeObjectURL(url);
  };

  return (
    <FormDialog
      form={created === null ? dialog : { submitting: false, onSubmit: (e) => e.preventDefault() }}
      title={editing ? t('preferences.tokens.edit_title') : t('preferences.tokens.create_title')}
      submitLabel={editing ? t('common.save') : t('common.create')}
      onClose={onClose}
      actions={
        created !== null ? (
          <Button variant="contained" onClick={onClose}>
            {t('common.close')}
          </Button>
        ) : undefined
      }
    >
      <TextInput {...form.register('name')} id="api-key-name" label={t('preferences.tokens.name')} autoComplete="off" autoFocus disabled={locked} error={dialog.fieldError('name')} />
      <TextInput {...form.register('description')} id="api-key-description" label={t('preferences.tokens.description')} autoComplete="off" multiline minRows={2} disabled={locked} />
      <Controller
        control={form.control}
        name="expiry"
        render={({ field, fieldState }) => (
          <ExpiryField
            id="api-key-expiry"
            labels={{
              expiry: t('preferences.tokens.expiry'),
              days: (count) => t('preferences.tokens.expiry_days', { count }),
              custom: t('preferences.tokens.expiry_custom'),
              keep: editing ? t('preferences.tokens.expiry_keep') : undefined,
              neverWarning: t('preferences.tokens.never_warning'),
            }}
            helperText={t('preferences.tokens.expiry_recommended')}
            value={field.value}
            onChange={field.onChange}
            disabled={locked}
            error={fieldState.error?.message}
          />
        )}
      />
      {created !== null && (
        <>
          <Alert severity="warning">{t('preferences.tokens.created_warning')}</Alert>
          <TextInput
            id="created-api-key"
            label={t('preferences.tokens.created_key')}
            value={created}
            readOnly
            onFocus={(e) => e.currentTarget.select()}
            inputProps={{ style: { fontFamily: 'monospace' } }}
          />
          <Stack direction="row" spacing={1}>
            <Button
              onClick={() =>
                void navigator.clipboard.writeText(created).then(
                  () => notify.success(t('preferences.details.copied')),
                  () => notify.error(t('preferences.details.copy_failed')),
                )
              }
            >
              {t('common.copy')}
            </Button>
            <Button onClick={download}>{t('preferences.tokens.download')}</Button>
          </Stack>
        </>
      )}
    </FormDialog>
  );
}
