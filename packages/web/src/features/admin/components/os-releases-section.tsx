import { DEVICE_TYPES } from '@flotilla/model';
import { Button, Chip, Stack, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type Column } from '../../../components/data-table';
import { DateText } from '../../../components/date-text';
import { SelectInput } from '../../../components/form-fields';
import { FullPageError } from '../../../components/full-page-status';
import { RowActions } from '../../../components/row-actions';
import { useOsReleases, useWithdrawOsRelease, type AdminOsRelease } from '../api/os-releases';
import '../i18n-os';
import { PublishOsReleaseDialog } from './publish-os-release-dialog';

/** Device types that get OS releases: the catalogue's, discontinued ones left out (the server refuses them). */
const PUBLISHABLE_TYPES = DEVICE_TYPES.filter((d) => d.state !== 'discontinued');

/**
 * /admin "Host OS releases" (issue 17): a device type's releases, both lines, withdrawn ones
 * marked; platform administrators publish and withdraw, other staff read.
 */
export function OsReleasesSection({ canPublish }: { canPublish: boolean }) {
  const { t } = useTranslation();
  const selectId = useId();
  const [deviceType, setDeviceType] = useState(PUBLISHABLE_TYPES[0]!.slug);
  const typeName = PUBLISHABLE_TYPES.find((d) => d.slug === deviceType)?.name ?? deviceType;
  const releases = useOsReleases(deviceType);
  const withdraw = useWithdrawOsRelease(deviceType);
  const [publishing, setPublishing] = useState(false);
  const [withdrawing, setWithdrawing] = useState<AdminOsRelease | null>(null);

  const columns: Column<AdminOsRelease>[] = [
    { key: 'version', header: t('admin.os_releases.version'), render: (r) => r.raw_version },
    { key: 'line', header: t('admin.os_releases.line'), render: (r) => (r.esr ? t('admin.os_releases.line_esr') : t('admin.os_releases.line_default')) },
    { key: 'variant', header: t('admin.os_releases.variant'), render: (r) => r.variant },
    { key: 'phase', header: t('admin.os_releases.phase'), render: (r) => r.phase ?? '' },
    { key: 'published', header: t('admin.os_releases.published'), render: (r) => <DateText value={r.created_at} /> },
    {
      key: 'state',
      header: t('admin.os_releases.state'),
      render: (r) =>
        r.is_invalidated ? <Chip size="small" variant="outlined" label={t('admin.os_releases.withdrawn')} /> : t('admin.os_releases.offered'),
    },
    ...(canPublish
      ? [
          {
            key: 'actions',
            header: '',
            render: (r: AdminOsRelease) =>
              r.is_invalidated ? null : (
                <RowActions
                  align="end"
                  actions={[{ label: t('admin.os_releases.withdraw'), name: t('admin.os_releases.withdraw_label', { version: r.raw_version }), danger: true, onClick: () => setWithdrawing(r) }]}
                />
              ),
          },
        ]
      : []),
  ];

  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">{t('admin.os_releases.description')}</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <Stack sx={{ minWidth: 280 }}>
          <SelectInput id={selectId} label={t('admin.os_releases.device_type')} value={deviceType} onChange={(e) => setDeviceType(e.target.value)} size="small">
            {PUBLISHABLE_TYPES.map((d) => (
              <option key={d.slug} value={d.slug}>
                {d.name}
              </option>
            ))}
          </SelectInput>
        </Stack>
        {canPublish ? (
          <Button variant="contained" onClick={() => setPublishing(true)}>
            {t('admin.os_releases.publish')}
          </Button>
        ) : (
          <Typography color="text.secondary">{t('admin.os_releases.administrators_only')}</Typography>
        )}
      </Stack>
      {releases.isError ? (
        <FullPageError message={t('admin.os_releases.load_failed')} onRetry={() => void releases.refetch()} />
      ) : releases.data?.length === 0 ? (
        <Typography color="text.secondary">{t('admin.os_releases.empty')}</Typography>
      ) : (
        <DataTable
          label={t('admin.os_releases.table', { deviceType: typeName })}
          columns={columns}
          rows={releases.data}
          getRowKey={(r) => r.id}
          loading={releases.isPending}
          virtualize={{ maxHeight: 480 }}
        />
      )}
      {publishing && (
        <PublishOsReleaseDialog
          deviceType={deviceType}
          deviceTypeName={typeName}
          existing={(releases.data ?? []).map((r) => r.raw_version)}
          onClose={() => setPublishing(false)}
        />
      )}
      {withdrawing && (
        <ConfirmDialog
          title={t('admin.os_releases.withdraw_title', { version: withdrawing.raw_version })}
          body={t('admin.os_releases.withdraw_body', { version: withdrawing.raw_version, deviceType: typeName })}
          confirmLabel={t('admin.os_releases.withdraw')}
          onConfirm={() => withdraw.mutateAsync(withdrawing.id)}
          success={t('admin.os_releases.withdrawn_toast', { version: withdrawing.raw_version })}
          onClose={() => setWithdrawing(null)}
        />
      )}
    </Stack>
  );
}
