import { Divider, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { getSession, sessionQueryKey, useSession } from '../../../lib/get-session';
import { useSessionClaims } from '../../../lib/get-session-claims';
import { isPlatformAdministrator, isProviderStaff } from '../../../lib/session-claims';
import { useLoginAs } from '../api/login-as';
import { MailOutbox } from '../components/mail-outbox';
import { paths } from '../../../lib/paths';
import { useInstallConfig } from '../../../lib/dashboard-config';

// The form loads with it (only platform administrators see it; the first-page budget).
const LoginAsForm = lazy(async () => ({ default: (await import('../components/login-as-form')).LoginAsForm }));
// The catalogue sections (issue 17) and their strings load on their own, after the page.
const OsReleasesSection = lazy(async () => ({ default: (await import('../components/os-releases-section')).OsReleasesSection }));
const SupervisorReleasesSection = lazy(async () => ({ default: (await import('../components/supervisor-releases-section')).SupervisorReleasesSection }));
// The billing catalogue editor (issue 18), only while billing is on.
const BillingPlansSection = lazy(async () => ({ default: (await import('../components/billing-plans-section')).BillingPlansSection }));
// Unpaid invoices (issue 18), only while billing is on; it and its strings load on their own.
const InvoicesSection = lazy(async () => ({ default: (await import('../components/invoices-section')).InvoicesSection }));
// Complimentary credits and refunds (issue 18), only while billing is on; it and its strings load on their own.
const CreditsSection = lazy(async () => ({ default: (await import('../components/credits-section')).CreditsSection }));
// The helpdesk (issue 19): tickets for support agents, and the ticket fields; each loads on its own with its strings.
const SupportTicketsSection = lazy(async () => ({ default: (await import('../components/support-tickets-section')).SupportTicketsSection }));
const TicketFieldsSection = lazy(async () => ({ default: (await import('../components/ticket-fields-section')).TicketFieldsSection }));

/** /admin: the provider staff area (spec 3 §6 admin link; spec 1 §6–§7 login-as). */
export function AdminPage() {
  const { t } = useTranslation();
  const { data: session } = useSession();
  const claims = useSessionClaims(session?.id);
  const { billing } = useInstallConfig();

  if (!claims) return null; // read from the stored token, no request
  if (!isProviderStaff(claims)) {
    return (
      <>
        <PageHeader title={t('admin.title')} />
        <Typography color="text.secondary">{t('admin.staff_only')}</Typography>
      </>
    );
  }
  const administrator = isPlatformAdministrator(claims);
  return (
    <>
      <PageHeader title={t('admin.title')} />
      <Stack spacing={3} divider={<Divider flexItem />}>
        <section aria-labelledby="admin-support-tickets">
          <Typography id="admin-support-tickets" variant="h6" component="h2" gutterBottom>
            {t('admin.support_tickets_title')}
          </Typography>
          <Suspense fallback={null}>
            <SupportTicketsSection />
          </Suspense>
        </section>
        <section aria-labelledby="admin-ticket-fields">
          <Typography id="admin-ticket-fields" variant="h6" component="h2" gutterBottom>
            {t('admin.ticket_fields_title')}
          </Typography>
          <Suspense fallback={null}>
            <TicketFieldsSection canEdit={administrator} />
          </Suspense>
        </section>
        <section aria-labelledby="admin-outbox">
          <Typography id="admin-outbox" variant="h6" component="h2" gutterBottom>
            {t('admin.outbox.title')}
          </Typography>
          <MailOutbox canRead={administrator} />
        </section>
        <section aria-labelledby="admin-login-as">
          <Typography id="admin-login-as" variant="h6" component="h2" gutterBottom>
            {t('admin.login_as.title')}
          </Typography>
          {administrator ? <LoginAs /> : <Typography color="text.secondary">{t('admin.login_as.administrators_only')}</Typography>}
        </section>
        <section aria-labelledby="admin-os-releases">
          <Typography id="admin-os-releases" variant="h6" component="h2" gutterBottom>
            {t('admin.os_releases_title')}
          </Typography>
          <Suspense fallback={null}>
            <OsReleasesSection canPublish={administrator} />
          </Suspense>
        </section>
        <section aria-labelledby="admin-supervisor-releases">
          <Typography id="admin-supervisor-releases" variant="h6" component="h2" gutterBottom>
            {t('admin.supervisor_releases_title')}
          </Typography>
          <Suspense fallback={null}>
            <SupervisorReleasesSection canPublish={administrator} />
          </Suspense>
        </section>
        {billing && (
          <section aria-labelledby="admin-billing-plans">
            <Typography id="admin-billing-plans" variant="h6" component="h2" gutterBottom>
              {t('admin.billing_plans_title')}
            </Typography>
            <Suspense fallback={null}>
              <BillingPlansSection canEdit={administrator} />
            </Suspense>
          </section>
        )}
        {billing && (
          <section aria-labelledby="admin-invoices">
            <Typography id="admin-invoices" variant="h6" component="h2" gutterBottom>
              {t('admin.invoices_title')}
            </Typography>
            <Suspense fallback={null}>
              <InvoicesSection canMarkPaid={administrator} />
            </Suspense>
          </section>
        )}
        {billing && (
          <section aria-labelledby="admin-credits">
            <Typography id="admin-credits" variant="h6" component="h2" gutterBottom>
              {t('admin.credits_title')}
            </Typography>
            <Suspense fallback={null}>
              <CreditsSection canManage={administrator} />
            </Suspense>
          </section>
        )}
      </Stack>
    </>
  );
}

/** After PATCH /login_ the dashboard holds the user's token: forget the administrator's data. */
function LoginAs() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const loginAs = useLoginAs();
  return (
    <Suspense fallback={null}>
      <LoginAsForm
        onLogin={async (username) => {
          await loginAs.mutateAsync(username);
          const session = await getSession();
          queryClient.setQueryData(sessionQueryKey, session);
          queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionQueryKey[0] });
          await navigate(paths.applications());
        }}
      />
    </Suspense>
  );
}
