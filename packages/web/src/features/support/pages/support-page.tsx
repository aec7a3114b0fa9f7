import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
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
import { Link as RouterLink, useNavigate } from 'react-router';
import { DateText } from '../../../components/date-text';
import { FullPageSpinner } from '../../../components/full-page-status';
import { PageHeader } from '../../../components/page-header';
import { paths } from '../../../lib/paths';
import {
  TICKETS_PAGE_SIZE,
  useOrganizationTicket,
  useOrganizationTickets,
  useSupportAccess,
  useSupportLinks,
  useSupportOrganizations,
  useTicketFields,
  type SubmittedTicket,
  type SupportOrganization,
} from '../api/support';
import { TicketForm } from '../components/ticket-form';
import '../i18n';

/** /support (spec 3 §2 Support): the support menu, the private ticket form, and the organization's tickets. */
export function SupportPage() {
  const { t } = useTranslation();
  const organizations = useSupportOrganizations();
  const [chosen, setChosen] = useState<number | null>(null);
  const orgs = organizations.data ?? [];
  const organizationId = chosen ?? orgs[0]?.id ?? null;

  return (
    <>
      <PageHeader title={t('support.title')} />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ alignItems: 'flex-start' }}>
        <SupportMenu />
        <Stack spacing={3} sx={{ flex: 1, minWidth: 0, width: '100%' }}>
          {organizations.isPending ? (
            <FullPageSpinner />
          ) : orgs.length === 0 || organizationId === null ? (
            <Alert severity="info">{t('support.no_organization')}</Alert>
          ) : (
            <>
              {orgs.length > 1 && <OrganizationPicker organizations={orgs} value={organizationId} onChange={setChosen} />}
              <Paper variant="outlined" sx={{ p: 3 }} id="support-ticket">
                <TicketArea key={organizationId} organization={orgs.find((o) => o.id === organizationId)!} />
              </Paper>
              <YourTickets organizationId={organizationId} />
            </>
          )}
        </Stack>
      </Stack>
    </>
  );
}

/** Spec 3 §2: private ticket form; help center; community forum; docs search; feature requests (hidden when not configured). */
function SupportMenu() {
  const { t } = useTranslation();
  const links = useSupportLinks();
  const external = [
    { label: t('support.help_center'), url: links.helpCenterUrl },
    { label: t('support.forums'), url: links.forumsUrl },
    { label: t('support.docs_search'), url: links.docsUrl },
    { label: t('support.feature_requests'), url: links.featureRequestsUrl },
  ].filter((l): l is { label: string; url: string } => !!l.url);
  return (
    <Paper variant="outlined" component="nav" aria-label={t('support.menu')} sx={{ width: { xs: '100%', md: 260 }, flexShrink: 0 }}>
      <List dense>
        <ListItem disablePadding>
          <ListItemButton component="a" href="#support-ticket" selected aria-current="page">
            <ListItemText primary={t('support.private_ticket')} />
          </ListItemButton>
        </ListItem>
        {external.map((l) => (
          <ListItem key={l.label} disablePadding>
            <ListItemButton component="a" href={l.url} target="_blank" rel="noopener noreferrer">
              <ListItemText primary={l.label} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}

function OrganizationPicker({ organizations, value, onChange }: { organizations: SupportOrganization[]; value: number; onChange: (id: number) => void }) {
  const { t } = useTranslation();
  return (
    <TextField select label={t('support.organization')} value={value} onChange={(e) => onChange(Number(e.target.value))} sx={{ maxWidth: 400 }}>
      {organizations.map((o) => (
        <MenuItem key={o.id} value={o.id}>
          {o.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Who may file (spec 3 §1/§6), then the form, then the success view (spec 3 §2/§4). */
function TicketArea({ organization }: { organization: SupportOrganization }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const links = useSupportLinks();
  const access = useSupportAccess(organization.id);
  const fields = useTicketFields(organization.id, access.data?.allowed === true);
  const [submitted, setSubmitted] = useState<SubmittedTicket | null>(null);
  const [round, setRound] = useState(0);
  const goBack = () => void navigate(-1);

  if (access.isError || fields.isError) {
    return (
      <Alert severity="error" action={<Button onClick={goBack}>{t('support.go_back')}</Button>}>
        {t('errors.something_went_wrong')}
      </Alert>
    );
  }
  if (!access.data) return <FullPageSpinner />;
  if (!access.data.allowed) {
    if (access.data.reason === 'verify_email') {
      return (
        <Alert severity="info" action={<Button component={RouterLink} to={paths.verifyEmailPending()}>{t('support.verify_action')}</Button>}>
          {t('support.verify_email')}
        </Alert>
      );
    }
    return (
      <Alert
        severity="info"
        action={
          access.data.is_administrator ? (
            <Button component={RouterLink} to={paths.organization(organization.id, 'billing')}>
              {t('support.upgrade')}
            </Button>
          ) : undefined
        }
      >
        <Typography>{t('support.paid_plan_only')}</Typography>
        {!access.data.is_administrator && <Typography>{t('support.ask_administrator', { organization: organization.name })}</Typography>}
      </Alert>
    );
  }
  if (submitted) {
    return (
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }} role="status">
        <Typography variant="h6" component="h2">
          {t('support.sent_title')}
        </Typography>
        <Typography>{t('support.sent_body', { id: submitted.request.id })}</Typography>
        {submitted.zendesk?.error && <Alert severity="warning">{t('support.sent_not_forwarded')}</Alert>}
        <Stack direction="row" spacing={1}>
          <Button
            variant="contained"
            onClick={() => {
              setSubmitted(null);
              setRound((r) => r + 1);
            }}
          >
            {t('support.create_another')}
          </Button>
          {links.helpCenterUrl && (
            <Button variant="outlined" href={links.helpCenterUrl} target="_blank" rel="noopener noreferrer">
              {t('support.visit_help_center')}
            </Button>
          )}
          <Button onClick={goBack}>{t('support.go_back')}</Button>
        </Stack>
      </Stack>
    );
  }
  if (!fields.data) return <FullPageSpinner />;
  return <TicketForm key={round} organizationId={organization.id} fields={fields.data} onSubmitted={setSubmitted} />;
}

/** The organization's tickets and the replies of support (docs/decisions.md, issue 19). */
function YourTickets({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const [open, setOpen] = useState<number | null>(null);
  const tickets = useOrganizationTickets(organizationId, page);
  const total = tickets.data?.total ?? 0;
  return (
    <Paper variant="outlined" sx={{ p: 3 }} component="section" aria-labelledby="support-your-tickets">
      <Typography id="support-your-tickets" variant="h6" component="h2" gutterBottom>
        {t('support.your_tickets')}
      </Typography>
      {tickets.isError ? (
        <Alert severity="error">{t('errors.something_went_wrong')}</Alert>
      ) : tickets.data && tickets.data.tickets.length === 0 ? (
        <Typography color="text.secondary">{t('support.no_tickets')}</Typography>
      ) : (
        <Table size="small" aria-labelledby="support-your-tickets">
          <TableHead>
            <TableRow>
              <TableCell>{t('support.ticket_subject')}</TableCell>
              <TableCell>{t('support.ticket_status')}</TableCell>
              <TableCell>{t('support.ticket_requester')}</TableCell>
              <TableCell>{t('support.ticket_created')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(tickets.data?.tickets ?? []).map((x) => (
              <TableRow key={x.id}>
                <TableCell>
                  <Button variant="text" onClick={() => setOpen(x.id)} sx={{ textTransform: 'none', p: 0 }}>
                    #{x.id} {x.subject}
                  </Button>
                </TableCell>
                <TableCell>
                  <Chip size="small" label={t(`support.status_${x.status}`)} />
                </TableCell>
                <TableCell>{x.requester.username}</TableCell>
                <TableCell>
                  <DateText value={x.created_at} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {total > TICKETS_PAGE_SIZE && (
        <Box sx={{ mt: 2 }}>
          <Pagination count={Math.ceil(total / TICKETS_PAGE_SIZE)} page={page + 1} onChange={(_e, p) => setPage(p - 1)} />
        </Box>
      )}
      {open !== null && <TicketDialog organizationId={organizationId} ticketId={open} onClose={() => setOpen(null)} />}
    </Paper>
  );
}

function TicketDialog({ organizationId, ticketId, onClose }: { organizationId: number; ticketId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const ticket = useOrganizationTicket(organizationId, ticketId);
  const d = ticket.data;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="support-ticket-title">
      <DialogTitle id="support-ticket-title">{d ? `#${d.id} ${d.subject}` : t('support.ticket_loading')}</DialogTitle>
      <DialogContent>
        {ticket.isError && <Alert severity="error">{t('errors.something_went_wrong')}</Alert>}
        {d && (
          <Stack spacing={2}>
            <Typography sx={{ whiteSpace: 'pre-wrap' }}>{d.description}</Typography>
            {d.attachments.length > 0 && (
              <Box component="ul" sx={{ m: 0 }}>
                {d.attachments.map((a) => (
                  <li key={a.id}>
                    <a href={a.url}>{a.filename}</a>
                  </li>
                ))}
              </Box>
            )}
            <Typography variant="subtitle1" component="h3">
              {t('support.replies')}
            </Typography>
            {d.replies.length === 0 ? (
              <Typography color="text.secondary">{t('support.no_replies')}</Typography>
            ) : (
              d.replies.map((r) => (
                <Paper key={r.id} variant="outlined" sx={{ p: 2 }}>
                  <Typography variant="caption" color="text.secondary">
                    {r.author} · <DateText value={r.created_at} />
                  </Typography>
                  <Typography sx={{ whiteSpace: 'pre-wrap' }}>{r.body}</Typography>
                </Paper>
              ))
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
