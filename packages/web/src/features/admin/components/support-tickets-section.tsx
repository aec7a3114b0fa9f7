import { replyProblem, TICKET_STATUSES, type TicketStatus } from '@flotilla/model';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Pagination,
  Paper,
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
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DateText } from '../../../components/date-text';
import { useNotify } from '../../../lib/notify';
import { ADMIN_TICKETS_PAGE_SIZE, useAdminTicket, useAdminTickets, useReplyToTicket, useSetTicketStatus } from '../api/support-tickets';
import '../i18n-support';

/** /admin "Support tickets" (issue 19): newest first, paged, filtered by status; open one to answer, close or reopen it. */
export function SupportTicketsSection() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<TicketStatus | null>(null);
  const [page, setPage] = useState(0);
  const [open, setOpen] = useState<number | null>(null);
  const tickets = useAdminTickets(status, page);
  const total = tickets.data?.total ?? 0;
  return (
    <Stack spacing={2}>
      <TextField
        select
        label={t('admin.support_tickets.filter')}
        value={status ?? ''}
        onChange={(e) => {
          setStatus(e.target.value === '' ? null : (e.target.value as TicketStatus));
          setPage(0);
        }}
        sx={{ maxWidth: 220 }}
        size="small"
      >
        <MenuItem value="">{t('admin.support_tickets.all')}</MenuItem>
        {TICKET_STATUSES.map((s) => (
          <MenuItem key={s} value={s}>
            {t(`admin.support_tickets.status_${s}`)}
          </MenuItem>
        ))}
      </TextField>
      {tickets.isError ? (
        <Alert severity="error">{t('admin.support_tickets.load_failed')}</Alert>
      ) : tickets.data && tickets.data.tickets.length === 0 ? (
        <Typography color="text.secondary">{t('admin.support_tickets.empty')}</Typography>
      ) : (
        <Table size="small" aria-labelledby="admin-support-tickets">
          <TableHead>
            <TableRow>
              <TableCell>{t('admin.support_tickets.subject')}</TableCell>
              <TableCell>{t('admin.support_tickets.organization')}</TableCell>
              <TableCell>{t('admin.support_tickets.requester')}</TableCell>
              <TableCell>{t('admin.support_tickets.status')}</TableCell>
              <TableCell>{t('admin.support_tickets.opened')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(tickets.data?.tickets ?? []).map((x) => (
              <TableRow key={x.id}>
                <TableCell>
                  <Button variant="text" sx={{ textTransform: 'none', p: 0 }} onClick={() => setOpen(x.id)}>
                    #{x.id} {x.subject}
                  </Button>
                </TableCell>
                <TableCell>{x.organization.name}</TableCell>
                <TableCell>{x.requester.email}</TableCell>
                <TableCell>
                  <Chip size="small" label={t(`admin.support_tickets.status_${x.status}`)} />
                </TableCell>
                <TableCell>
                  <DateText value={x.created_at} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {total > ADMIN_TICKETS_PAGE_SIZE && <Pagination count={Math.ceil(total / ADMIN_TICKETS_PAGE_SIZE)} page={page + 1} onChange={(_e, p) => setPage(p - 1)} />}
      {open !== null && <TicketDialog id={open} onClose={() => setOpen(null)} />}
    </Stack>
  );
}

function TicketDialog({ id, onClose }: { id: number; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const ticket = useAdminTicket(id);
  const reply = useReplyToTicket(id);
  const setStatus = useSetTicketStatus(id);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [confirmClose, setConfirmClose] = useState(false);
  const d = ticket.data;

  const send = async () => {
    const p = replyProblem(text);
    setProblem(p ?? null);
    if (p) return;
    try {
      await reply.mutateAsync(text);
      setText('');
      notify.success(t('admin.support_tickets.reply_sent'));
    } catch (err) {
      notify.error(err);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="admin-ticket-title">
      <DialogTitle id="admin-ticket-title">{d ? `#${d.id} ${d.subject}` : `#${id}`}</DialogTitle>
      <DialogContent>
        {ticket.isError && <Alert severity="error">{t('admin.support_tickets.load_failed')}</Alert>}
        {d && (
          <Stack spacing={2}>
            <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}>
              <dt>{t('admin.support_tickets.status')}</dt>
              <dd style={{ margin: 0 }}>{t(`admin.support_tickets.status_${d.status}`)}</dd>
              <dt>{t('admin.support_tickets.organization')}</dt>
              <dd style={{ margin: 0 }}>
                {d.organization.name} ({d.organization.handle})
              </dd>
              <dt>{t('admin.support_tickets.requester')}</dt>
              <dd style={{ margin: 0 }}>
                {d.requester.username} &lt;{d.requester.email}&gt;
              </dd>
              {d.email_ccs.length > 0 && (
                <>
                  <dt>{t('admin.support_tickets.cc')}</dt>
                  <dd style={{ margin: 0 }}>{d.email_ccs.join(', ')}</dd>
                </>
              )}
              <dt>{t('admin.support_tickets.opened')}</dt>
              <dd style={{ margin: 0 }}>
                <DateText value={d.created_at} />
              </dd>
              {d.fields.map((f) => (
                <Box key={f.id} sx={{ display: 'contents' }}>
                  <dt>{f.title}</dt>
                  <dd style={{ margin: 0 }}>{f.display}</dd>
                </Box>
              ))}
            </Box>
            {d.forward_error && <Alert severity="warning">{t('admin.support_tickets.not_forwarded', { error: d.forward_error })}</Alert>}
            <Paper variant="outlined" sx={{ p: 2 }}>
              <Typography sx={{ whiteSpace: 'pre-wrap' }}>{d.description}</Typography>
            </Paper>
            <Box>
              <Typography variant="subtitle1" component="h3">
                {t('admin.support_tickets.attachments')}
              </Typography>
              {d.attachments.length === 0 ? (
                <Typography color="text.secondary">{t('admin.support_tickets.no_attachments')}</Typography>
              ) : (
                <Box component="ul" sx={{ m: 0 }}>
                  {d.attachments.map((a) => (
                    <li key={a.id}>
                      <a href={a.url}>{a.filename}</a>
                    </li>
                  ))}
                </Box>
              )}
            </Box>
            <Box>
              <Typography variant="subtitle1" component="h3">
                {t('admin.support_tickets.thread')}
              </Typography>
              {d.replies.length === 0 ? (
                <Typography color="text.secondary">{t('admin.support_tickets.no_replies')}</Typography>
              ) : (
                <Stack spacing={1}>
                  {d.replies.map((r) => (
                    <Paper key={r.id} variant="outlined" sx={{ p: 2 }}>
                      <Typography variant="caption" color="text.secondary">
                        {r.author} · <DateText value={r.created_at} />
                      </Typography>
                      <Typography sx={{ whiteSpace: 'pre-wrap' }}>{r.body}</Typography>
                    </Paper>
                  ))}
                </Stack>
              )}
            </Box>
            {d.status !== 'closed' && (
              <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
                <TextField
                  label={t('admin.support_tickets.reply_label')}
                  multiline
                  minRows={4}
                  fullWidth
                  value={text}
                  onChange={(e) => {
                    setText(e.target.value);
                    setProblem(null);
                  }}
                  error={problem !== null}
                  helperText={problem ?? t('admin.support_tickets.reply_help')}
                  inputProps={{ maxLength: 20_000 }}
                />
                <Button variant="contained" onClick={() => void send()} loading={reply.isPending}>
                  {t('admin.support_tickets.send_reply')}
                </Button>
              </Stack>
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        {d && d.status === 'closed' && (
          <Button
            onClick={() =>
              void setStatus.mutateAsync('open').then(
                () => notify.success(t('admin.support_tickets.reopened')),
                (err: unknown) => notify.error(err),
              )
            }
          >
            {t('admin.support_tickets.reopen_ticket')}
          </Button>
        )}
        {d && d.status !== 'closed' && (
          <Button color="error" onClick={() => setConfirmClose(true)}>
            {t('admin.support_tickets.close_ticket')}
          </Button>
        )}
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
      {confirmClose && (
        <ConfirmDialog
          title={t('admin.support_tickets.close_confirm_title')}
          body={t('admin.support_tickets.close_confirm_body')}
          confirmLabel={t('admin.support_tickets.close_ticket')}
          onConfirm={() => setStatus.mutateAsync('closed')}
          success={t('admin.support_tickets.closed')}
          onClose={() => setConfirmClose(false)}
        />
      )}
    </Dialog>
  );
}
