import { Button, Stack, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type Column } from '../../../components/data-table';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { PermissionTooltip } from '../../../components/permission-tooltip';
import { useNotify } from '../../../lib/notify';
import { useRemoveReleaseTag, useSetReleaseTag } from '../api/release-mutations';

interface Tag {
  tag_key: string;
  value: string;
}

/** The release's tags (spec 2 §2): add, edit and remove for holders of resin.release_tag.all. */
export function ReleaseTags({ releaseId, tags, canEdit }: { releaseId: number; tags: Tag[]; canEdit: boolean }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const setTag = useSetReleaseTag();
  const removeTag = useRemoveReleaseTag();
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [keyError, setKeyError] = useState<string>();
  const [editing, setEditing] = useState<Tag | null>(null);

  const save = async (tag: Tag) => {
    try {
      await setTag.mutateAsync({ id: releaseId, key: tag.tag_key, value: tag.value, exists: tags.some((x) => x.tag_key === tag.tag_key) });
      notify.success(t('releases.tag_added', { key: tag.tag_key }));
      return true;
    } catch (err) {
      notify.error(err);
      return false;
    }
  };

  const onAdd = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const tagKey = key.trim();
    if (tagKey === '') {
      setKeyError(t('releases.tag_key_required'));
      return;
    }
    if (await save({ tag_key: tagKey, value })) {
      setKey('');
      setValue('');
    }
  };

  const onRemove = async (tagKey: string) => {
    try {
      await removeTag.mutateAsync({ id: releaseId, key: tagKey });
      notify.success(t('releases.tag_removed', { key: tagKey }));
    } catch (err) {
      notify.error(err);
    }
  };

  const columns: Column<Tag>[] = [
    { key: 'key', header: t('releases.tag_key'), render: (tag) => tag.tag_key },
    { key: 'value', header: t('releases.tag_value'), render: (tag) => tag.value },
    {
      key: 'actions',
      header: '',
      render: (tag) => (
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <PermissionTooltip allowed={canEdit}>
            <Button size="small" disabled={!canEdit} onClick={() => setEditing(tag)} aria-label={t('releases.edit_tag', { key: tag.tag_key })}>
              {t('releases.tag_edit')}
            </Button>
          </PermissionTooltip>
          <PermissionTooltip allowed={canEdit}>
            <Button
              size="small"
              color="error"
              disabled={!canEdit}
              onClick={() => void onRemove(tag.tag_key)}
              aria-label={t('releases.remove_tag', { key: tag.tag_key })}
            >
              {t('releases.tag_remove')}
            </Button>
          </PermissionTooltip>
        </Stack>
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
      <Stack component="form" direction={{ xs: 'column', sm: 'row' }} spacing={1} noValidate onSubmit={(e) => void onAdd(e)} sx={{ alignItems: 'flex-start' }}>
        <TextInput
          id="release-tag-key"
          label={t('releases.tag_key')}
          value={key}
          size="small"
          disabled={!canEdit}
          error={keyError}
          onChange={(e) => {
            setKey(e.target.value);
            setKeyError(undefined);
          }}
          inputProps={{ maxLength: 100 }}
        />
        <TextInput id="release-tag-value" label={t('releases.tag_value')} value={value} size="small" disabled={!canEdit} onChange={(e) => setValue(e.target.value)} />
        <PermissionTooltip allowed={canEdit}>
          <Button type="submit" variant="outlined" disabled={!canEdit} loading={setTag.isPending && editing === null} sx={{ flexShrink: 0, height: 40 }}>
            {t('releases.add_tag')}
          </Button>
        </PermissionTooltip>
      </Stack>
      {editing && (
        <EditTagDialog
          tag={editing}
          submitting={setTag.isPending}
          onSubmit={async (next) => {
            if (await save(next)) setEditing(null);
          }}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}

function EditTagDialog({ tag, submitting, onSubmit, onClose }: { tag: Tag; submitting: boolean; onSubmit: (tag: Tag) => Promise<void>; onClose: () => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(tag.value);
  return (
    <FormDialog
      open
      title={t('releases.edit_tag_title', { key: tag.tag_key })}
      submitLabel={t('releases.save_tag')}
      cancelLabel={t('releases.cancel')}
      submitting={submitting}
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit({ tag_key: tag.tag_key, value });
      }}
      onClose={onClose}
    >
      <TextInput id="release-tag-edit-value" label={t('releases.tag_value')} value={value} onChange={(e) => setValue(e.target.value)} autoFocus />
    </FormDialog>
  );
}
