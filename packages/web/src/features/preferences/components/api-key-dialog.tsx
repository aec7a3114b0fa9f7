import { API_KEY_EXPIRY_PRESET_DAYS } from '@flotilla/model';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectInput, TextInput } from '../../../components/form-fields';
import { toDateTimeLocal } from '../../../lib/datetime-local';
import { useNotify } from '../../../lib/notify';
import { useCreateUserApiKey, useUpdateUserApiKey, type UserApiKey } from '../api/api-keys';
import { apiKeyExpiry, type ExpiryChoice } from '../api-key-expiry';

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
  const titleId = useId();
  const create = useCreateUserApiKey();
  const update = useUpdateUserApiKey();
  const [name, setName] = useState(editing?.name ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [choice, setChoice] = useState<ExpiryChoice>(editing ? 'keep' : '30');
  const [custom, setCustom] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const expiry = apiKeyExpiry(choice, custom, new Date());
  const nameError = touched && name.trim() === '' ? t('preferences.tokens.name_required') : undefined;
  const expiryError = 'error' in expiry && (touched || custom !== '') ? t(`preferences.tokens.${expiry.error}`) : undefined;
  const locked = busy || created !== null;

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setTouched(true);
    if (created !== null || name.trim() === '' || 'error' in expiry) return;
    setBusy(true);
    try {
      const input = { name: name.trim(), description: description.trim() || null, expiryDate: expiry.expiryDate };
      if (editing) {
        await update.mutateAsync({ id: editing.id, input });
        notify.success(t('preferences.tokens.saved', { name: input.name }));
        onClose();
      } else {
        setCreated(await runSensitive(() => create.mutateAsync(input)));
      }
    } catch (err) {
      notify.error(err);
    } finally {
      setBusy(false);
    }
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([`${created ?? ''}\n`], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${name.trim().replace(/[^\w.-]+/g, '_') || 'api-key'}.txt`;
    a.click();
    URL.revokeObjectURL(url);
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      slotProps={{ paper: { component: 'form', noValidate: true, onSubmit: (e: FormEvent<HTMLFormElement>) => void onSubmit(e) } as object }}
    >
      <DialogTitle id={titleId}>{editing ? t('preferences.tokens.edit_title') : t('preferences.tokens.create_title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextInput id="api-key-name" label={t('preferences.tokens.name')} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" autoFocus disabled={locked} error={nameError} />
          <TextInput
            id="api-key-description"
            label={t('preferences.tokens.description')}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            autoComplete="off"
            multiline
            minRows={2}
            disabled={locked}
          />
          <SelectInput
            id="api-key-expiry"
            label={t('preferences.tokens.expiry')}
            value={choice}
            onChange={(e) => setChoice(e.target.value as ExpiryChoice)}
            disabled={locked}
            helperText={t('preferences.tokens.expiry_recommended')}
          >
            {editing && <option value="keep">{t('preferences.tokens.expiry_keep')}</option>}
            {API_KEY_EXPIRY_PRESET_DAYS.map((d) => (
              <option key={d} value={String(d)}>
                {t('preferences.tokens.expiry_days', { count: d })}
              </option>
            ))}
            <option value="custom">{t('preferences.tokens.expiry_custom')}</option>
            <option value="never">{t('preferences.tokens.expiry_never')}</option>
          </SelectInput>
          {choice === 'custom' && (
            <TextInput
              id="api-key-expiry-date"
              type="datetime-local"
              label={t('preferences.tokens.expiry_date')}
              value={custom}
              onChange={(e) => setCustom(e.target.value)}
              inputProps={{ min: toDateTimeLocal(new Date()) }}
              disabled={locked}
              error={expiryError}
            />
          )}
          {choice === 'never' && <Alert severity="warning">{t('preferences.tokens.never_warning')}</Alert>}
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
                  {t('preferences.tokens.copy')}
                </Button>
                <Button onClick={download}>{t('preferences.tokens.download')}</Button>
              </Stack>
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        {created !== null ? (
          <Button variant="contained" onClick={onClose}>
            {t('preferences.tokens.close')}
          </Button>
        ) : (
          <>
            <Button onClick={onClose} disabled={busy}>
              {t('preferences.tokens.cancel')}
            </Button>
            <Button type="submit" variant="contained" loading={busy}>
              {editing ? t('preferences.tokens.save') : t('preferences.tokens.create_submit')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
