import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useRef, useState } from 'react';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import '../i18n-summary';
import { useRunMutation } from '../../../lib/notify';
import { sdk } from '../../../lib/sdk';
import type { DeviceTag } from '../api/device-tags';
import { rowKeyProblems, rowsFromTags, rowState, stagedChanges, tagFormSchema, type TagForm, type TagRow } from '../tag-staging';

interface Props {
  uuid: string;
  deviceName: string;
  tags: DeviceTag[];
  /** resin.device_tag.all (operator and up); without it the dialog only lists. */
  canEdit: boolean;
  onSaved: () => Promise<unknown>;
  onClose: () => void;
}

/**
 * The tag manager (spec 2 §2): the device's tags as key/value rows; additions, edits and
 * deletions are staged, each undoable, and saved together through device.tags.set/remove
 * (a new value for a saved tag is a PATCH of that device_tag).
 * The staged rows are a react-hook-form field array; its zod schema (`tagFormSchema`) holds
 * the API's key rules (reserved io.resin./io.balena., no whitespace) and uniqueness.
 */
export function DeviceTagsDialog({ uuid, deviceName, tags, canEdit, onSaved, onClose }: Props) {
  const { t } = useTranslation();
  const run = useRunMutation();
  const titleId = useId();
  const nextId = useRef(tags.length);
  const form = useForm<TagForm>({ resolver: zodResolver<TagForm, unknown, TagForm>(tagFormSchema), defaultValues: { rows: rowsFromTags(tags) } });
  const { fields, append, remove, update } = useFieldArray({ control: form.control, name: 'rows' });
  const rows = useWatch({ control: form.control, name: 'rows' });
  const saving = form.formState.isSubmitting;
  const [failed, setFailed] = useState(false);

  const add = () => append({ id: nextId.current++, key: '', value: '', deleted: false }, { shouldFocus: false });
  const changes = stagedChanges(rows);
  const problems = rowKeyProblems({ rows });
  const invalid = problems.some((p) => p !== undefined);

  const applyChanges = async (staged: TagRow[]) => {
    const changes = stagedChanges(staged);
    // Removals first, so a renamed key's old name is free before the new one is set.
    const removes = changes.filter((c) => c.kind === 'remove');
    const sets = changes.filter((c) => c.kind !== 'remove');
    const results = [
      ...(await Promise.allSettled(removes.map((c) => sdk.models.device.tags.remove(uuid, c.key)))),
      ...(await Promise.allSettled(
        sets.map((c) =>
          c.kind === 'update'
            ? sdk.pine.patch({ resource: 'device_tag', id: c.id, body: { value: c.value } })
            : c.kind === 'set'
              ? sdk.models.device.tags.set(uuid, c.key, c.value)
              : undefined,
        ),
      )),
    ];
    await onSaved();
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
  };

  const save = form.handleSubmit(async ({ rows: staged }) => {
    setFailed(false);
    await run(() => applyChanges(staged), {
      success: t('devices.tags_saved'),
      onSuccess: onClose,
      // Spec 2 §8 'Some changes failed to apply': the dialog stays open with the first error.
      onError: () => setFailed(true),
    });
  });

  return (
    <Dialog open onClose={saving ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{t('devices.tags_title', { name: deviceName })}</DialogTitle>
      <DialogContent>
        {failed ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {t('devices.tags_some_failed')}
          </Alert>
        ) : null}
        {!canEdit ? (
          <Alert severity="info" sx={{ mb: 2 }}>
            {t('devices.tags_read_only')}
          </Alert>
        ) : null}
        {rows.length === 0 ? <Typography color="text.secondary">{t('devices.tags_none')}</Typography> : null}
        <Stack component="ul" spacing={1.5} sx={{ m: 0, p: 0, pt: 1, listStyle: 'none' }} aria-label={t('devices.tags')}>
          {fields.map((field, index) => {
            const row = rows[index] ?? field;
            const state = rowState(row);
            const problem = problems[index];
            return (
              <Stack component="li" key={field.id} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }} data-state={state}>
                <Controller
                  control={form.control}
                  name={`rows.${index}.key`}
                  render={({ field: input }) => (
                    <TextField
                      size="small"
                      label={t('devices.tag_key')}
                      value={input.value}
                      onChange={input.onChange}
                      onBlur={input.onBlur}
                      inputRef={input.ref}
                      disabled={!canEdit || row.deleted || saving}
                      error={problem !== undefined && row.key !== ''}
                      helperText={problem !== undefined && row.key !== '' ? problem : ' '}
                      slotProps={{ htmlInput: { 'aria-label': t('devices.tag_key_n', { n: index + 1 }) } }}
                      sx={{ flex: 1, textDecoration: row.deleted ? 'line-through' : undefined }}
                    />
                  )}
                />
                <Controller
                  control={form.control}
                  name={`rows.${index}.value`}
                  render={({ field: input }) => (
                    <TextField
                      size="small"
                      label={t('devices.tag_value')}
                      value={input.value}
                      onChange={input.onChange}
                      onBlur={input.onBlur}
                      inputRef={input.ref}
                      disabled={!canEdit || row.deleted || saving}
                      helperText={state === 'unchanged' ? ' ' : t(`devices.tag_state_${state}`)}
                      slotProps={{ htmlInput: { 'aria-label': t('devices.tag_value_n', { n: index + 1 }) } }}
                      sx={{ flex: 2 }}
                    />
                  )}
                />
                {canEdit ? (
                  row.deleted || (state === 'updated' && row.savedKey !== undefined) ? (
                    <Button
                      size="small"
                      disabled={saving}
                      onClick={() => update(index, { ...row, deleted: false, key: row.savedKey ?? row.key, value: row.savedValue ?? row.value })}
                      aria-label={t('devices.tag_undo_n', { n: index + 1 })}
                      sx={{ mt: 0.5 }}
                    >
                      {t('devices.tag_undo')}
                    </Button>
                  ) : (
                    <Button
                      size="small"
                      color="error"
                      disabled={saving}
                      onClick={() => (state === 'added' ? remove(index) : update(index, { ...row, deleted: true }))}
                      aria-label={t('devices.tag_delete_n', { n: index + 1 })}
                      sx={{ mt: 0.5 }}
                    >
                      {t('common.delete')}
                    </Button>
                  )
                ) : null}
              </Stack>
            );
          })}
        </Stack>
        {canEdit ? (
          <Button onClick={add} disabled={saving} sx={{ mt: 1 }}>
            {t('devices.tag_add')}
          </Button>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={saving}>
          {canEdit ? t('common.cancel') : t('common.close')}
        </Button>
        {canEdit ? (
          <Button variant="contained" loading={saving} disabled={changes.length === 0 || invalid} onClick={(e) => void save(e)}>
            {t('devices.tags_save', { count: changes.length })}
          </Button>
        ) : null}
      </DialogActions>
    </Dialog>
  );
}
