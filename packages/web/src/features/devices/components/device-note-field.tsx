import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

// The markdown renderer and the syntax dialog load only when a note is shown or the dialog
// opens: the device page has no first-page budget left (ARCHITECTURE.md, 350 KB).
const MarkdownView = lazy(() => import('../markdown/markdown-view'));
const MarkdownSyntaxDialog = lazy(() => import('../markdown/markdown-syntax-dialog'));
// The editor (a multi-line input) loads when editing starts.
const AutosaveTextField = lazy(async () => ({ default: (await import('../../../components/autosave-text-field')).AutosaveTextField }));

interface Props {
  initialValue: string;
  disabled: boolean;
  onSave: (value: string) => Promise<unknown>;
}

/**
 * The device note (spec 2 §2, §4 Notes): rendered as markdown; a click (or Enter) edits it
 * inline, saved 500 ms after a pause in typing and at once when editing ends or the page is
 * left (AutosaveTextField). A link opens the supported-syntax dialog.
 */
export function DeviceNoteField({ initialValue, disabled, onSave }: Props) {
  const { t } = useTranslation();
  const [note, setNote] = useState(initialValue);
  const [editing, setEditing] = useState(false);
  const [syntaxOpen, setSyntaxOpen] = useState(false);

  const save = async (value: string) => {
    await onSave(value);
    setNote(value);
  };
  const edit = () => {
    if (!disabled) setEditing(true);
  };

  return (
    <Stack spacing={1}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="subtitle2" component="h3">
          {t('devices.note')}
        </Typography>
        <Button size="small" onClick={() => setSyntaxOpen(true)}>
          {t('devices.markdown_supported')}
        </Button>
      </Stack>
      {editing ? (
        <Box
          onBlur={(e) => {
            if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setEditing(false);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setEditing(false);
          }}
        >
          <Suspense fallback={<Typography variant="body2">{note}</Typography>}>
            <AutosaveTextField
              id="device-note"
              label={t('devices.note')}
              initialValue={note}
              disabled={disabled}
              onSave={save}
              savingLabel={t('devices.saving')}
              savedLabel={t('devices.saved')}
            />
            <FocusOnMount id="device-note" />
          </Suspense>
          <Button size="small" onClick={() => setEditing(false)}>
            {t('common.done')}
          </Button>
        </Box>
      ) : note.trim() === '' ? (
        disabled ? (
          <Typography variant="body2" color="text.secondary">
            {t('devices.note_empty')}
          </Typography>
        ) : (
          <Button variant="outlined" size="small" onClick={edit} sx={{ alignSelf: 'flex-start' }}>
            {t('devices.note_add')}
          </Button>
        )
      ) : (
        <Box
          data-testid="device-note-view"
          role={disabled ? undefined : 'button'}
          tabIndex={disabled ? undefined : 0}
          aria-label={disabled ? undefined : t('devices.note_edit')}
          title={disabled ? undefined : t('devices.note_edit')}
          onClick={(e) => {
            // A link in the note opens; anywhere else starts editing.
            if (!(e.target instanceof Element && e.target.closest('a'))) edit();
          }}
          onKeyDown={(e) => {
            if (e.target === e.currentTarget && (e.key === 'Enter' || e.key === ' ')) {
              e.preventDefault();
              edit();
            }
          }}
          sx={{
            p: 1,
            borderRadius: 1,
            border: 1,
            borderColor: 'divider',
            cursor: disabled ? undefined : 'text',
            overflowWrap: 'anywhere',
            '& > :first-of-type': { mt: 0 },
            '& > :last-child': { mb: 0 },
            '& pre': { overflowX: 'auto', p: 1, bgcolor: 'action.hover' },
          }}
        >
          <Suspense fallback={<Typography variant="body2">{note}</Typography>}>
            <MarkdownView source={note} />
          </Suspense>
        </Box>
      )}
      {syntaxOpen ? (
        <Suspense fallback={null}>
          <MarkdownSyntaxDialog onClose={() => setSyntaxOpen(false)} />
        </Suspense>
      ) : null}
    </Stack>
  );
}

/** Moves focus into the editor once its chunk has loaded and it has mounted. */
function FocusOnMount({ id }: { id: string }) {
  useEffect(() => {
    document.getElementById(id)?.focus();
  }, [id]);
  return null;
}
