import { canAdministerIdentityProvider, IDP_MESSAGES } from '@flotilla/model';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { DateText } from '../../../components/date-text';
import { DefinitionRows } from '../../../components/definition-rows';
import { FullPageError, FullPageSpinner } from '../../../components/full-page-status';
import { PageHeader } from '../../../components/page-header';
import { PermissionTooltip } from '../../../components/permission-tooltip';
import { RedirectWithError } from '../../../components/redirect-with-error';
import { useNotify } from '../../../lib/notify';
import { paths } from '../../../lib/paths';
import {
  useAddIdentityProviderMembership,
  useCreateIdentityProvider,
  useDeleteIdentityProvider,
  useUpdateIdentityProvider,
} from '../api/mutations';
import {
  useAdministeredOrganizationIds,
  useEligibleOrganizations,
  useIdentityProvider,
  useIdentityProviders,
  type IdentityProviderDetails,
  type OrganizationRef,
} from '../api/queries';
import { MembershipsTable } from '../components/memberships-table';
import { addableOrganizations, landingProviderId, providerControlBlock } from '../idp-view';
import '../i18n';

// The dialogs (forms, zod, the metadata reader) load when opened: the page's first load stays small.
const IdentityProviderFormDialog = lazy(async () => ({ default: (await import('../components/identity-provider-form-dialog')).IdentityProviderFormDialog }));
const RemoveIdentityProviderDialog = lazy(async () => ({ default: (await import('../components/remove-identity-provider-dialog')).RemoveIdentityProviderDialog }));
const AddOrganizationDialog = lazy(async () => ({ default: (await import('../components/add-organization-dialog')).AddOrganizationDialog }));

/**
 * Spec 1 §6: only administrators of an organization whose plan includes SAML reach these
 * pages; anyone else is told why and sent to /fleets (the server refuses them anyway).
 */
function WithSamlAccess({ children }: { children: (eligible: OrganizationRef[]) => ReactNode }) {
  const { t } = useTranslation();
  const eligible = useEligibleOrganizations();
  if (eligible.isPending) return <FullPageSpinner />;
  if (eligible.isError) return <FullPageError message={t('identity_providers.load_failed')} onRetry={() => void eligible.refetch()} />;
  if (eligible.data.length === 0) return <RedirectWithError to={paths.applications()} message={IDP_MESSAGES.unauthorized_view_idp} />;
  return <>{children(eligible.data)}</>;
}

/** /identity-provider: to the provider the user administers, else the add-identity-provider landing. */
export function IdentityProviderLandingPage() {
  return <WithSamlAccess>{(eligible) => <Landing eligible={eligible} />}</WithSamlAccess>;
}

function Landing({ eligible }: { eligible: OrganizationRef[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notify = useNotify();
  const providers = useIdentityProviders();
  const administered = useAdministeredOrganizationIds();
  const create = useCreateIdentityProvider();
  const [adding, setAdding] = useState(false);
  if (providers.isError || administered.isError) {
    return (
      <FullPageError
        message={t('identity_providers.load_failed')}
        onRetry={() => {
          void providers.refetch();
          void administered.refetch();
        }}
      />
    );
  }
  if (providers.isPending || administered.isPending) return <FullPageSpinner />;
  const target = landingProviderId(providers.data, administered.data);
  // While the add dialog is open the new provider's arrival must not unmount it mid-submit.
  if (target !== undefined && !adding) return <Navigate to={paths.identityProvider(target)} replace />;

  return (
    <>
      <PageHeader title={t('identity_providers.title')} />
      <Paper variant="outlined" sx={{ p: 3, maxWidth: 760 }}>
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Typography variant="h6" component="h2">
            {t('identity_providers.landing_heading')}
          </Typography>
          <Typography>{t('identity_providers.landing_intro')}</Typography>
          <Typography color="text.secondary">{t('identity_providers.landing_steps')}</Typography>
          <Button variant="contained" onClick={() => setAdding(true)}>
            {t('identity_providers.add')}
          </Button>
        </Stack>
      </Paper>
      <Suspense fallback={null}>
        {adding && (
          <IdentityProviderFormDialog
            mode="create"
            organizations={eligible}
            onSave={(input) => create.mutateAsync(input)}
            onCreated={({ id, membershipError }) => {
              // Created, but an organization after the first was refused: the page shows what was added.
              if (membershipError !== undefined) notify.error(membershipError);
              void navigate(paths.identityProvider(id), { replace: true });
            }}
            onClose={() => setAdding(false)}
          />
        )}
      </Suspense>
    </>
  );
}

/** /identity-provider/{id}: the provider's details and the organizations it authorizes. */
export function IdentityProviderDetailsPage({ identityProviderId }: { identityProviderId: number }) {
  return <WithSamlAccess>{(eligible) => <Details identityProviderId={identityProviderId} eligible={eligible} />}</WithSamlAccess>;
}

function Details({ identityProviderId, eligible }: { identityProviderId: number; eligible: OrganizationRef[] }) {
  const { t } = useTranslation();
  const provider = useIdentityProvider(identityProviderId);
  const administered = useAdministeredOrganizationIds();
  const [removed, setRemoved] = useState(false);
  if (removed) return <Navigate to={paths.identityProvider()} replace />;
  if (provider.isError || administered.isError) {
    return (
      <FullPageError
        message={t('identity_providers.load_failed')}
        onRetry={() => {
          void provider.refetch();
          void administered.refetch();
        }}
      />
    );
  }
  if (provider.isPending || administered.isPending) return <FullPageSpinner />;
  if (provider.data === null) return <RedirectWithError to={paths.identityProvider()} message={IDP_MESSAGES.no_idp_found} />;
  const canAdminister = canAdministerIdentityProvider(
    provider.data.memberships.map((m) => m.organization.id),
    administered.data,
  );
  return <ProviderView provider={provider.data} canAdminister={canAdminister} eligible={eligible} onRemoved={() => setRemoved(true)} />;
}

interface ProviderViewProps {
  provider: IdentityProviderDetails;
  canAdminister: boolean;
  eligible: OrganizationRef[];
  onRemoved: () => void;
}

function ProviderView({ provider, canAdminister, eligible, onRemoved }: ProviderViewProps) {
  const { t } = useTranslation();
  const update = useUpdateIdentityProvider();
  const remove = useDeleteIdentityProvider();
  const addMembership = useAddIdentityProviderMembership();
  const [dialog, setDialog] = useState<'edit' | 'remove' | 'add-organization' | null>(null);
  const block = providerControlBlock(canAdminister);
  const control = (label: string, open: typeof dialog, color?: 'error') => (
    <PermissionTooltip allowed={!block} title={block}>
      <Button variant="outlined" color={color} disabled={!!block} onClick={() => setDialog(open)}>
        {label}
      </Button>
    </PermissionTooltip>
  );
  const signInAddress = `${window.location.origin}/saml/${encodeURIComponent(provider.ssoIdentifier)}`;

  return (
    <>
      <PageHeader
        title={t('identity_providers.title')}
        actions={
          <>
            {control(t('common.edit'), 'edit')}
            {control(t('common.remove'), 'remove', 'error')}
          </>
        }
      />
      <Stack spacing={3}>
        <Paper variant="outlined" sx={{ p: 3 }} component="section" aria-labelledby="idp-details-heading">
          <Typography id="idp-details-heading" variant="h6" component="h2" gutterBottom>
            {t('identity_providers.details')}
          </Typography>
          <DefinitionRows
            rows={[
              [t('identity_providers.sso_identifier'), <span data-testid="idp-sso-identifier">{provider.ssoIdentifier}</span>],
              [t('identity_providers.sign_in_address'), signInAddress],
              [t('identity_providers.entry_point'), <span data-testid="idp-entry-point">{provider.entryPoint}</span>],
              [t('identity_providers.issuer'), <span data-testid="idp-issuer">{provider.issuer}</span>],
              [
                t('identity_providers.certificate'),
                <Box component="pre" data-testid="idp-certificate" sx={{ m: 0, fontFamily: 'monospace', fontSize: '0.75rem', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                  {provider.certificate}
                </Box>,
              ],
              [t('identity_providers.created_at'), <DateText value={provider.createdAt} />],
            ]}
          />
        </Paper>
        <Box component="section" aria-labelledby="idp-memberships-heading">
          <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
            <Typography id="idp-memberships-heading" variant="h6" component="h2">
              {t('identity_providers.memberships')}
            </Typography>
            {control(t('identity_providers.add_organization'), 'add-organization')}
          </Stack>
          <MembershipsTable ssoIdentifier={provider.ssoIdentifier} memberships={provider.memberships} canAdminister={canAdminister} />
        </Box>
      </Stack>
      <Suspense fallback={null}>
        {dialog === 'edit' && (
          <IdentityProviderFormDialog
            mode="edit"
            initial={{ sso_identifier: provider.ssoIdentifier, entry_point: provider.entryPoint, issuer: provider.issuer, certificate: provider.certificate }}
            onSave={({ fields }) => update.mutateAsync({ id: provider.id, fields })}
            onClose={() => setDialog(null)}
          />
        )}
        {dialog === 'remove' && (
          <RemoveIdentityProviderDialog
            identityProviderId={provider.id}
            ssoIdentifier={provider.ssoIdentifier}
            onConfirm={() => remove.mutateAsync(provider.id)}
            onRemoved={onRemoved}
            onClose={() => setDialog(null)}
          />
        )}
        {dialog === 'add-organization' && (
          <AddOrganizationDialog
            organizations={addableOrganizations(
              eligible,
              provider.memberships.map((m) => m.organization.id),
            )}
            onAdd={(organizationId) => addMembership.mutateAsync({ identityProviderId: provider.id, organizationId })}
            onClose={() => setDialog(null)}
          />
        )}
      </Suspense>
    </>
  );
}
