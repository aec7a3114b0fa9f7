import { Button, Typography } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FullPageError } from '../../../components/full-page-status';
import { AddIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { useOrganizations } from '../api/get-organizations';
import { OrganizationsTable } from '../components/organizations-table';

// The dialog (forms, validation) loads when first wanted, not with the page.
const loadCreateOrganizationDialog = () => import('../components/create-organization-dialog');
const CreateOrganizationDialog = lazy(async () => ({ default: (await loadCreateOrganizationDialog()).CreateOrganizationDialog }));

/** /orgs: the caller's organizations and the create dialog (spec 1 §2). */
export function OrganizationsPage() {
  const { t } = useTranslation();
  const organizations = useOrganizations();
  const [creating, setCreating] = useState(false);

  return (
    <>
      <PageHeader
        title={t('orgs.title')}
        actions={
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => setCreating(true)}
            onPointerEnter={() => void loadCreateOrganizationDialog()}
          >
            {t('orgs.create')}
          </Button>
        }
      />
      {organizations.isError ? (
        <FullPageError message={t('orgs.load_failed')} onRetry={() => void organizations.refetch()} />
      ) : organizations.data?.length === 0 ? (
        <Typography color="text.secondary">{t('orgs.empty')}</Typography>
      ) : (
        <OrganizationsTable organizations={organizations.data} loading={organizations.isPending} />
      )}
      {creating && (
        <Suspense fallback={null}>
          <CreateOrganizationDialog open onClose={() => setCreating(false)} />
        </Suspense>
      )}
    </>
  );
}
