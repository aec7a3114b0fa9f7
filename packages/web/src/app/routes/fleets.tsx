import { Button } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FullPageError } from '../../components/full-page-status';
import { AddIcon } from '../../components/icons';
import { PageHeader } from '../../components/page-header';
import { useFleets } from '../../features/fleets/api/get-fleets';
import { FleetsEmptyState } from '../../features/fleets/components/fleets-empty-state';
import { FleetsTable } from '../../features/fleets/components/fleets-table';

// The dialog (forms, validation) loads when first wanted, not with the page.
const loadCreateFleetDialog = () => import('../../features/fleets/components/create-fleet-dialog');
const CreateFleetDialog = lazy(async () => ({ default: (await loadCreateFleetDialog()).CreateFleetDialog }));

export function FleetsRoute() {
  const { t } = useTranslation();
  const fleets = useFleets();
  const [creating, setCreating] = useState(false);
  const openDialog = () => setCreating(true);
  const isEmpty = fleets.data?.length === 0;

  return (
    <>
      <PageHeader
        title={t('fleets.title')}
        actions={
          // The empty state has its own create button; one is enough.
          fleets.data && !isEmpty ? (
            <Button variant="contained" startIcon={<AddIcon />} onClick={openDialog} onPointerEnter={() => void loadCreateFleetDialog()}>
              {t('fleets.create')}
            </Button>
          ) : undefined
        }
      />
      {fleets.isPending && <FleetsTable fleets={undefined} loading />}
      {fleets.isError && <FullPageError message={t('fleets.load_failed')} onRetry={() => void fleets.refetch()} />}
      {isEmpty && <FleetsEmptyState onCreate={openDialog} onIntent={() => void loadCreateFleetDialog()} />}
      {fleets.data && !isEmpty && <FleetsTable fleets={fleets.data} />}
      {creating && (
        <Suspense fallback={null}>
          <CreateFleetDialog open onClose={() => setCreating(false)} />
        </Suspense>
      )}
    </>
  );
}
