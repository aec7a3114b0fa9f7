import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { OutboxMail } from '../api/get-mail-outbox';
import { formatDate } from '../../../lib/date-format';

/** One outbox mail: who it went to and its text body (the HTML body is not rendered). */
export function MailBodyDialog({ mail, onClose }: { mail: OutboxMail; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{mail.subject}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {t('admin.outbox.to', { recipient: mail.recipient, created: formatDate(mail.created_at) })}
        </Typography>
        <Typography
          component="pre"
          data-testid="mail-text-body"
          sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontFamily: 'monospace', fontSize: 13, m: 0 }}
        >
          {mail.text_body}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
