import { Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { DataTable, type Column } from '../../../components/data-table';
import { RowActions } from '../../../components/row-actions';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { PermissionTooltip } from '../../../components/permission-tooltip';
import { requiredText } from '../../../lib/form-rules';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { useRunMutation } from '../../../lib/notify';
import { useRemoveReleaseTag, useSetReleaseTag } from '../api/release-mutations';

interface Tag {
  tag_key: string;
  value: string;
}

/** The release's tags (spec 2 §2): add, edit and remove for holders of resin.release_tag.all. */
export function ReleaseTags({ releaseId, tags, canEdit }: { releaseId: number; tags: Tag[]; canEdit: boolean }) {
  const { t } = useTranslation();
  const run = useRunMutation();
  const setTag = useSetReleaseTag();
  const removeTag = useRemoveReleaseTag();
  const [editing, setEditing] = useState<Tag | null>(null);
  const save = (tag: Tag) => setTag.mutateAsync({ id: releaseId, key: tag.tag_key, value: tag.value, exists: tags.some((x) => x.tag_key === tag.tag_key) });
  const { form, ...adding } = useMutationForm({
    schema: z.object({ tag_key: requiredText(t('releases.tag_key_required')), value: z.string() }),
    defaultValues: { tag_key: '', value: '' },
    submit: async (tag) => (await save(tag), tag.tag_key),
    success: (key) => t('releases.tag_added', { key }),
    onSuccess: () => form.reset(),
  });

  const onRemove = (tagKey: string) => run(() => removeTag.mutateAsync({ id: releaseId, key: tagKey }), { success: t('releases.tag_removed', { key: tagKey }) });

  const columns: Column<Tag>[] = [
    { key: 'key', header: t('releases.tag_key'), render: (tag) => tag.tag_key },
    { key: 'value', header: t('releases.tag_value'), render: (tag) => tag.value },
    {
      key: 'actions',
      header: '',
      render: (tag) => (
        <RowActions
          allowed={canEdit}
          align="end"
          actions={[
            { label: t('common.edit'), name: t('releases.edit_tag', { key: tag.tag_key }), onClick: () => setEditing(tag) },
            { label: t('common.remove'), name: t('releases.remove_tag', { key: tag.tag_key }), onClick: () => void onRemove(tag.tag_key), danger: true },
          ]}
        />
      ),
    },
  ];

  return (
    <Stack component="section" aria-label={t('releases.tags')} spacing={1.5}>
      <Typography variant="h6" component="h2">
        {t('releases.tags')}
      </Typography>
      {tags.length === 0 ? (
        <Typography color="text.secondary">{t('releases.tags_empty')}</Typography>
      ) : (
        <DataTable label={t('releases.tags')} columns={columns} rows={tags} getRowKey={(tag) => tag.tag_key} />
      )}
      <Stack component="form" direction={{ xs: 'column', sm: 'row' }} spacing={1} noValidate onSubmit={adding.onSubmit} sx={{ alignItems: 'flex-start' }}>
        <TextInput
          {...form.register('tag_key')}
          id="release-tag-key"
          label={t('releases.tag_key')}
          size="small"
          disabled={!canEdit}
          error={adding.fieldError('tag_key')}
          inputProps={{ maxLength: 100 }}
        />
        <TextInput {...form.register('value')} id="release-tag-value" label={t('releases.tag_value')} size="small" disabled={!canEdit} />
        <PermissionTooltip allowed={canEdit}>
          <Button type="submit" variant="outlined" disabled={!canEdit} loading={adding.submitting} sx={{ flexShrink: 0, height: 40 }}>
            {t('releases.add_tag')}
          </Button>
        </PermissionTooltip>
      </Stack>
      {editing && (
        <EditTagDialog tag={editing} onSave={save} onClose={() => setEditing(null)} />
      )}
    </Stack>
  );
}

function EditTagDialog({ tag, onSave, onClose }: { tag: Tag; onSave: (tag: Tag) => Promise<unknown>; onClose: () => void }) {
  const { t } = useTranslation();
  const { form, ...dialog } = useMutationForm({
    schema: z.object({ value: z.string() }),
    defaultValues: { value: tag.value },
    submit: ({ value }) => onSave({ tag_key: tag.tag_key, value }),
    success: t('releases.tag_added', { key: tag.tag_key }),
    onSuccess: onClose,
  });
  return (
    <FormDialog form={dialog} title={t('releases.edit_tag_title', { key: tag.tag_key })} submitLabel={t('releases.save_tag')} onClose={onClose}>
      <TextInput {...form.register('value')} id="release-tag-edit-value" label={t('releases.tag_value')} autoFocus />
    </FormDialog>
  );
}
