import { Avatar, Paper, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrganizationDetails as Organization } from '../api/get-organization';
import { logoSrc } from '../logo-file';
import { formatDate } from '../../../lib/date-format';

/** Logo, name, handle, creation date and the user's role (spec 1 §2, organization summary). */
export function OrganizationDetails({ organization, role }: { organization: Organization; role: string | null | undefined }) {
  const { t } = useTranslation();
  const created = new Date(organization.created_at);
  const roleLabel =
    role === 'administrator' ? t('orgs.role_administrator') : role === 'member' ? t('orgs.role_member') : (role ?? '—');
  const src = logoSrc(organization.logo_image);
  return (
    <Paper variant="outlined" component="section" aria-label={t('org_summary.details')} sx={{ p: 3 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ alignItems: { sm: 'center' } }}>
        <Avatar
          src={src}
          alt={src ? t('org_summary.logo_alt', { name: organization.name }) : undefined}
          variant="rounded"
          sx={{ width: 72, height: 72, fontSize: 32 }}
        >
          {organization.name.slice(0, 1).toUpperCase()}
        </Avatar>
        <Stack component="dl" direction="row" spacing={4} sx={{ m: 0, flexWrap: 'wrap', rowGap: 1 }}>
          <Field label={t('org_summary.handle')}>{organization.handle}</Field>
          <Field label={t('org_summary.created')}>
            <time dateTime={organization.created_at}>
              {formatDate(created) ?? organization.created_at}
            </time>
          </Field>
          <Field label={t('org_summary.your_role')}>{roleLabel}</Field>
        </Stack>
      </Stack>
    </Paper>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, fontWeight: 500 }}>
        {children}
      </Typography>
    </div>
  );
}
