import { isSystemTicketField, optionValueOf, TICKET_FIELD_TYPES, ticketFieldProblem, type TicketField, type TicketFieldInput, type TicketFieldType } from '@flotilla/model';
import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  IconButton,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../lib/notify';
import { useAdminTicketFields, useReorderTicketFields, useSaveTicketField } from '../api/support-tickets';
import '../i18n-support';

/** /admin "Support ticket fields" (issue 19): platform administrators add, edit, reorder and deactivate; support agents read. */
export function TicketFieldsSection({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const fields = useAdminTicketFields();
  const reorder = useReorderTicketFields();
  const [editing, setEditing] = useState<TicketField | 'new' | null>(null);
  const list = fields.data ?? [];
  const move = (index: number, by: -1 | 1) => {
    const ids = list.map((f) => f.id);
    const [id] = ids.splice(index, 1);
    ids.splice(index + by, 0, id!);
    reorder.mutate(ids, { onError: (err) => notify.error(err) });
  };
  if (fields.isError) return <Alert severity="error">{t('errors.something_went_wrong')}</Alert>;
  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      {!canEdit && <Typography color="text.secondary">{t('admin.ticket_fields.read_only')}</Typography>}
      <Table size="small" aria-labelledby="admin-ticket-fields">
        <TableHead>
          <TableRow>
            <TableCell>{t('admin.ticket_fields.title')}</TableCell>
            <TableCell>{t('admin.ticket_fields.title_in_portal')}</TableCell>
            <TableCell>{t('admin.ticket_fields.type')}</TableCell>
            <TableCell>{t('admin.ticket_fields.required')}</TableCell>
            <TableCell>{t('admin.ticket_fields.active')}</TableCell>
            {canEdit && <TableCell />}
          </TableRow>
        </TableHead>
        <TableBody>
          {list.map((f, i) => (
            <TableRow key={f.id}>
              <TableCell>{f.title}</TableCell>
              <TableCell>{f.title_in_portal}</TableCell>
              <TableCell>{t(`admin.ticket_fields.type_${f.type}`)}</TableCell>
              <TableCell>{f.required_in_portal ? '✓' : ''}</TableCell>
              <TableCell>{f.active ? '✓' : t('admin.ticket_fields.inactive')}</TableCell>
              {canEdit && (
                <TableCell align="right">
                  <IconButton size="small" disabled={i === 0 || reorder.isPending} onClick={() => move(i, -1)} aria-label={t('admin.ticket_fields.move_up', { title: f.title })}>
                    ↑
                  </IconButton>
                  <IconButton size="small" disabled={i === list.length - 1 || reorder.isPending} onClick={() => move(i, 1)} aria-label={t('admin.ticket_fields.move_down', { title: f.title })}>
                    ↓
                  </IconButton>
                  <Button size="small" onClick={() => setEditing(f)} aria-label={t('admin.ticket_fields.edit_field', { title: f.title })}>
                    {t('common.edit')}
                  </Button>
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {canEdit && (
        <Button variant="outlined" onClick={() => setEditing('new')}>
          {t('admin.ticket_fields.add')}
        </Button>
      )}
      {editing !== null && <FieldDialog field={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}

function FieldDialog({ field, onClose }: { field: TicketField | null; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const save = useSaveTicketField();
  const [type, setType] = useState<TicketFieldType>(field?.type ?? 'text');
  const [title, setTitle] = useState(field?.title ?? '');
  const [portal, setPortal] = useState(field?.title_in_portal ?? '');
  const [required, setRequired] = useState(field?.required_in_portal ?? false);
  const [active, setActive] = useState(field?.active ?? true);
  const [options, setOptions] = useState((field?.custom_field_options ?? []).map((o) => o.name).join('\n'));
  const [problem, setProblem] = useState<string | null>(null);
  const system = field !== null && isSystemTicketField(field.type);

  const input = (): TicketFieldInput => {
    const kept = new Map((field?.custom_field_options ?? []).map((o) => [o.name, o.value]));
    const names = options.split('\n').map((n) => n.trim()).filter((n) => n !== '');
    return {
      type,
      title,
      title_in_portal: portal,
      required_in_portal: required,
      active,
      custom_field_options: type === 'tagger' ? names.map((name) => ({ name, value: kept.get(name) ?? optionValueOf(name) })) : null,
    };
  };
  const submit = async () => {
    const value = input();
    const p = ticketFieldProblem(value, field ?? undefined);
    setProblem(p ?? null);
    if (p) return;
    try {
      await save.mutateAsync({ id: field?.id ?? null, field: value });
      notify.success(t('admin.ticket_fields.saved'));
      onClose();
    } catch (err) {
      notify.error(err);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="ticket-field-dialog">
      <DialogTitle id="ticket-field-dialog">{field ? t('admin.ticket_fields.edit_title') : t('admin.ticket_fields.add_title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField select label={t('admin.ticket_fields.type')} value={type} onChange={(e) => setType(e.target.value as TicketFieldType)} disabled={field !== null}>
            {TICKET_FIELD_TYPES.filter((x) => field !== null || !isSystemTicketField(x)).map((x) => (
              <MenuItem key={x} value={x}>
                {t(`admin.ticket_fields.type_${x}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField label={t('admin.ticket_fields.title')} value={title} onChange={(e) => setTitle(e.target.value)} inputProps={{ maxLength: 100 }} />
          <TextField label={t('admin.ticket_fields.title_in_portal')} value={portal} onChange={(e) => setPortal(e.target.value)} inputProps={{ maxLength: 100 }} />
          <FormControlLabel control={<Checkbox checked={required} disabled={system} onChange={(e) => setRequired(e.target.checked)} />} label={t('admin.ticket_fields.required')} />
          <FormControlLabel control={<Checkbox checked={active} disabled={system} onChange={(e) => setActive(e.target.checked)} />} label={t('admin.ticket_fields.active')} />
          {type === 'tagger' && (
            <TextField label={t('admin.ticket_fields.options')} helperText={t('admin.ticket_fields.options_help')} multiline minRows={4} value={options} onChange={(e) => setOptions(e.target.value)} />
          )}
          {problem && <Alert severity="error">{problem}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button variant="contained" onClick={() => void submit()} loading={save.isPending}>
          {t('common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
