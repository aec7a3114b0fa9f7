import { Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type Column } from '../../../components/data-table';
import { DateText } from '../../../components/date-text';
import { FullPageError } from '../../../components/full-page-status';
import { useSupervisorReleases, type AdminSupervisorRelease } from '../api/os-releases';
import '../i18n-os';
import { PublishSupervisorDialog } from './publish-supervisor-dialog';

/** /admin "Supervisor releases" (issue 17): every architecture's agent releases; platform administrators publish a build. */
export function SupervisorReleasesSection({ canPublish }: { canPublish: boolean }) {
  const { t } = useTranslation();
  const releases = useSupervisorReleases();
  const [publishing, setPublishing] = useState(false);
  const columns: Column<AdminSupervisorRelease>[] = [
    { key: 'arch', header: t('admin.supervisor_releases.architecture'), render: (r) => r.arch },
    { key: 'version', header: t('admin.supervisor_releases.version'), render: (r) => r.raw_version },
    { key: 'published', header: t('admin.supervisor_releases.published'), render: (r) => <DateText value={r.created_at} /> },
  ];
  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">{t('admin.supervisor_releases.description')}</Typography>
      {canPublish ? (
        <Button variant="contained" onClick={() => setPublishing(true)} sx={{ alignSelf: 'flex-start' }}>
          {t('admin.supervisor_releases.publish')}
        </Button>
      ) : (
        <Typography color="text.secondary">{t('admin.supervisor_releases.administrators_only')}</Typography>
      )}
      {releases.isError ? (
        <FullPageError message={t('admin.supervisor_releases.load_failed')} onRetry={() => void releases.refetch()} />
      ) : releases.data?.length === 0 ? (
        <Typography color="text.secondary">{t('admin.supervisor_releases.empty')}</Typography>
      ) : (
        <DataTable
          label={t('admin.supervisor_releases.table')}
          columns={columns}
          rows={releases.data}
          getRowKey={(r) => r.id}
          loading={releases.isPending}
          virtualize={{ maxHeight: 480 }}
        />
      )}
      {publishing && <PublishSupervisorDialog onClose={() => setPublishing(false)} />}
    </Stack>
  );
}
