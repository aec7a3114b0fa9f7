import type { ApplicationClass } from '@flotilla/model';
import { Button, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FullPageError } from '../../../components/full-page-status';
import { AddIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { useApplications } from '../api/get-applications';
import { useListLens } from '../use-list-lens';
import { ApplicationsEmptyState } from './applications-empty-state';
import { ApplicationsGrid } from './applications-grid';
import { ApplicationsTable } from './applications-table';

// The dialog (forms, validation) loads when first wanted, not with the page.
const loadCreateDialog = () => import('./create-fleet-dialog');
const CreateFleetDialog = lazy(async () => ({ default: (await loadCreateDialog()).CreateFleetDialog }));

interface Props {
  appClass: ApplicationClass;
  title: string;
  /** /orgs/{orgId}/{class}s: only what this organization owns; the dialog preselects it. */
  organizationId?: number;
  /** Whether the create action is offered (organization lists: administrators only). */
  canCreate?: boolean;
  /** The dialog offers the app class only with the apps flag. */
  appsEnabled: boolean;
  /** Shown under the header (e.g. a link back to the organization). */
  children?: ReactNode;
}

/**
 * One list page for fleets, apps and blocks (spec 2 §2/§7): ordered by name, refetched every
 * 8 s, in a table or a grid lens, an empty state with documentation, and the create dialog
 * with the class preselected.
 */
export function ApplicationList({ appClass, title, organizationId, canCreate = true, appsEnabled, children }: Props) {
  const { t } = useTranslation();
  const applications = useApplications({ appClass, organizationId });
  const [lens, setLens] = useListLens();
  const [creating, setCreating] = useState(false);
  const openDialog = () => setCreating(true);
  const rows = applications.data;
  const isEmpty = rows?.length === 0;

  return (
    <>
      <PageHeader
        title={title}
        actions={
          rows && !isEmpty ? (
            <>
              <ToggleButtonGroup
                size="small"
                exclusive
                value={lens}
                onChange={(_, next: 'table' | 'grid' | null) => next && setLens(next)}
                aria-label={t('fleets.lens')}
              >
                <ToggleButton value="table">{t('fleets.lens_table')}</ToggleButton>
                <ToggleButton value="grid">{t('fleets.lens_grid')}</ToggleButton>
              </ToggleButtonGroup>
              {/* The empty state has its own create button; one is enough. */}
              {canCreate && (
                <Button variant="contained" startIcon={<AddIcon />} onClick={openDialog} onPointerEnter={() => void loadCreateDialog()}>
                  {t(`fleets.create_${appClass}`)}
                </Button>
              )}
            </>
          ) : undefined
        }
      />
      {children}
      {applications.isPending && <ApplicationsTable appClass={appClass} rows={undefined} loading />}
      {applications.isError && !rows && <FullPageError message={t('fleets.load_failed')} onRetry={() => void applications.refetch()} />}
      {isEmpty && <ApplicationsEmptyState appClass={appClass} onCreate={openDialog} onIntent={() => void loadCreateDialog()} />}
      {rows && !isEmpty && (lens === 'grid' ? <ApplicationsGrid appClass={appClass} rows={rows} /> : <ApplicationsTable appClass={appClass} rows={rows} />)}
      {creating && (
        <Suspense fallback={null}>
          <CreateFleetDialog
            open
            initialClass={appClass}
            initialOrganizationId={organizationId}
            appsEnabled={appsEnabled}
            onClose={() => setCreating(false)}
          />
        </Suspense>
      )}
    </>
  );
}
