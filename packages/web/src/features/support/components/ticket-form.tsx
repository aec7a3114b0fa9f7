import {
  attachmentProblem,
  isSystemTicketField,
  parseCcEmails,
  SUPPORT_ATTACHMENT_LIMIT_MB,
  SUPPORT_ATTACHMENTS_MAX,
  SUPPORT_MESSAGES,
  ticketProblems,
  type TicketField,
  type TicketProblems,
  type TicketSubmission,
} from '@flotilla/model';
import { Alert, Box, Button, Checkbox, Chip, FormControl, FormControlLabel, FormHelperText, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../lib/notify';
import { useSubmitTicket, useUploadAttachment, type SubmittedTicket, type UploadedAttachment } from '../api/support';

type Values = Record<string, string | boolean>;

const keyOf = (f: TicketField) => (isSystemTicketField(f.type) ? f.type : String(f.id));

/**
 * The private ticket form (spec 3 §2, §5): one input per ticket field (required ones show the
 * blank message), cc addresses, attachments of at most 5 MB each. The rules are the model's
 * (`ticketProblems`, `attachmentProblem`), the ones the server applies.
 */
export function TicketForm({ organizationId, fields, onSubmitted }: { organizationId: number; fields: TicketField[]; onSubmitted: (ticket: SubmittedTicket) => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [values, setValues] = useState<Values>({});
  const [cc, setCc] = useState('');
  const [attachments, setAttachments] = useState<UploadedAttachment[]>([]);
  const [attachmentError, setAttachmentError] = useState<string | null>(null);
  const [problems, setProblems] = useState<TicketProblems>({});
  const upload = useUploadAttachment(organizationId);
  const submit = useSubmitTicket(organizationId);

  const message = (problem: string | undefined) =>
    problem === undefined ? undefined : problem === SUPPORT_MESSAGES.blank ? t('support.field_blank') : problem;
  const set = (k: string, v: string | boolean) => {
    setValues((old) => ({ ...old, [k]: v }));
    setProblems(({ [k]: _gone, ...rest }) => rest);
  };

  const submission = (): TicketSubmission => ({
    subject: String(values.subject ?? ''),
    comment: { body: String(values.description ?? ''), uploads: attachments.map((a) => a.token) },
    custom_fields: fields
      .filter((f) => !isSystemTicketField(f.type) && values[keyOf(f)] !== undefined && values[keyOf(f)] !== '')
      .map((f) => ({ id: f.id, value: values[keyOf(f)]! })),
    email_ccs: parseCcEmails(cc).map((user_email) => ({ user_email })),
  });

  const onFiles = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    setAttachmentError(null);
    for (const file of files) {
      if (attachmentProblem(file.size)) {
        setAttachmentError(t('support.attachment_too_large', { name: file.name, limit: SUPPORT_ATTACHMENT_LIMIT_MB }));
        continue;
      }
      if (attachments.length >= SUPPORT_ATTACHMENTS_MAX) {
        setAttachmentError(t('support.too_many_attachments', { max: SUPPORT_ATTACHMENTS_MAX }));
        break;
      }
      try {
        const uploaded = await upload.mutateAsync(file);
        setAttachments((old) => [...old, uploaded]);
      } catch (err) {
        notify.error(err);
      }
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const ticket = submission();
    const found = ticketProblems(fields, ticket);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    try {
      onSubmitted(await submit.mutateAsync(ticket));
    } catch (err) {
      notify.error(err);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-labelledby="support-form-title">
      <Typography id="support-form-title" variant="h6" component="h2" gutterBottom>
        {t('support.form_title')}
      </Typography>
      <Stack spacing={2}>
        {fields.map((f) => (
          <FieldInput key={f.id} field={f} value={values[keyOf(f)]} error={message(problems[keyOf(f)])} onChange={(v) => set(keyOf(f), v)} />
        ))}
        <TextField
          label={t('support.cc_label')}
          value={cc}
          onChange={(e) => {
            setCc(e.target.value);
            setProblems(({ email_ccs: _gone, ...rest }) => rest);
          }}
          error={problems.email_ccs !== undefined}
          helperText={problems.email_ccs ?? t('support.cc_help')}
          inputProps={{ maxLength: 2000 }}
        />
        <Box>
          <Button component="label" variant="outlined" disabled={upload.isPending}>
            {upload.isPending ? t('support.uploading') : t('support.attach')}
            <input hidden type="file" multiple onChange={(e) => void onFiles(e)} aria-label={t('support.attach')} />
          </Button>
          <FormHelperText error={attachmentError !== null || problems.uploads !== undefined}>
            {attachmentError ?? problems.uploads ?? t('support.attach_help', { limit: SUPPORT_ATTACHMENT_LIMIT_MB })}
          </FormHelperText>
          {attachments.length > 0 && (
            <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap' }} aria-label={t('support.attachments')} component="ul" style={{ listStyle: 'none', padding: 0 }}>
              {attachments.map((a) => (
                <li key={a.token}>
                  <Chip label={a.name} onDelete={() => setAttachments((old) => old.filter((x) => x.token !== a.token))} />
                </li>
              ))}
            </Stack>
          )}
        </Box>
        {Object.keys(problems).length > 0 && <Alert severity="error">{t('support.fix_fields')}</Alert>}
        <Box>
          <Button type="submit" variant="contained" disabled={submit.isPending || upload.isPending}>
            {t('support.submit')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}

function FieldInput({ field, value, error, onChange }: { field: TicketField; value: string | boolean | undefined; error: string | undefined; onChange: (v: string | boolean) => void }) {
  const { t } = useTranslation();
  const required = field.required_in_portal || isSystemTicketField(field.type);
  const common = { label: field.title_in_portal, required, error: error !== undefined, helperText: error, fullWidth: true } as const;
  switch (field.type) {
    case 'checkbox':
      return (
        <FormControl error={error !== undefined}>
          <FormControlLabel control={<Checkbox checked={value === true} onChange={(e) => onChange(e.target.checked)} />} label={field.title_in_portal} />
          {error && <FormHelperText>{error}</FormHelperText>}
        </FormControl>
      );
    case 'tagger':
      return (
        <TextField {...common} select value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)}>
          {!required && <MenuItem value="">{t('support.none')}</MenuItem>}
          {(field.custom_field_options ?? []).map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {o.name}
            </MenuItem>
          ))}
        </TextField>
      );
    case 'date':
      return <TextField {...common} type="date" value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />;
    case 'description':
    case 'textarea':
      return <TextField {...common} multiline minRows={5} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} inputProps={{ maxLength: 20_000 }} />;
    default:
      return <TextField {...common} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} inputProps={{ maxLength: 255 }} />;
  }
}
