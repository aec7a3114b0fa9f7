import { OS_UPDATE_DEVICE_STATUS } from '@flotilla/model';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DefinitionRows } from '../../../../components/definition-rows';
import { PermissionTooltip } from '../../../../components/permission-tooltip';
import { SettingRow } from '../../../../components/setting-row';
import { useDeviceOsTargets, useOsVersions, useSupervisorReleases } from '../../api/device-os';
import type { DeviceDetails } from '../../api/get-device';
import { osUpdateOverview, osUpdateUnavailable, supervisorOverview, type OsUpdateOverview, type SupervisorOverview } from '../../os-rules';
import { OS_STATE_KEY } from './os-state-keys';
import '../../i18n-os';

// The update dialogs load when first opened (the first-page budget).
const OsUpdateDialog = lazy(async () => ({ default: (await import('./os-update-dialog')).OsUpdateDialog }));
const SupervisorUpdateDialog = lazy(async () => ({ default: (await import('./supervisor-update-dialog')).SupervisorUpdateDialog }));


/** The device's OS and supervisor overviews from the catalogue (undefined while it loads). */
function useOsOverviews(device: DeviceDetails) {
  const versions = useOsVersions(device.deviceType.slug);
  const targets = useDeviceOsTargets(device.uuid);
  const supervisor = useSupervisorReleases(targets.data?.architecture);
  const os: OsUpdateOverview | undefined = versions.data
    ? osUpdateOverview({ deviceType: device.deviceType.slug, isOnline: device.is_online, osVersion: device.os_version, osVariant: device.os_variant }, versions.data)
    : undefined;
  const sup: SupervisorOverview | undefined = supervisor.data
    ? supervisorOverview({ osVersion: device.os_version, supervisorVersion: device.supervisor_version }, supervisor.data)
    : undefined;
  return { os, supervisor: sup, targets: targets.data ?? undefined, failed: versions.isError || targets.isError || supervisor.isError };
}

function OsUpdateText({ os, pinned }: { os: OsUpdateOverview; pinned: string | null | undefined }) {
  const { t } = useTranslation();
  const { state, reason } = os.classification;
  return (
    <>
      <span>{t(OS_STATE_KEY[state])}</span>
      {reason ? <span>{` — ${reason}`}</span> : null}
      {os.recommended && os.targets.some((x) => x.version === os.recommended) ? <span>{` · ${t('devices.os_recommended', { version: os.recommended })}`}</span> : null}
      {pinned ? <span>{` · ${t('devices.os_target_release', { version: pinned })}`}</span> : null}
    </>
  );
}

function OsTargetList({ os }: { os: OsUpdateOverview }) {
  const { t } = useTranslation();
  if (os.targets.length === 0) return <>{t('devices.os_targets_none')}</>;
  return (
    <>
      {os.targets
        .map((target) => (target.classification.takeover ? t('devices.os_takeover', { version: target.version }) : target.version))
        .join(', ')}
    </>
  );
}

function SupervisorText({ supervisor, pinned }: { supervisor: SupervisorOverview; pinned: string | null | undefined }) {
  const { t } = useTranslation();
  return (
    <>
      <span>{supervisor.block ?? supervisor.newer.map((r) => r.raw_version).join(', ')}</span>
      {pinned ? <span>{` · ${t('devices.supervisor_target_release', { version: pinned })}`}</span> : null}
    </>
  );
}

/** The summary card's OS update classification, available targets and supervisor status (spec 2 §4). */
export function DeviceOsSummary({ device }: { device: DeviceDetails }) {
  const { t } = useTranslation();
  const { os, supervisor, targets, failed } = useOsOverviews(device);
  const loading = t('devices.os_line_loading');
  const rows: [string, ReactNode][] = [
    [t('devices.os_update'), os ? <OsUpdateText os={os} pinned={targets?.osRelease} /> : loading],
    [t('devices.os_targets'), os ? <OsTargetList os={os} /> : loading],
    [t('devices.supervisor_update'), supervisor ? <SupervisorText supervisor={supervisor} pinned={targets?.supervisorRelease} /> : loading],
  ];
  return (
    <Box component="section" aria-label={t('devices.os_updates')} sx={{ mt: 2 }}>
      <DefinitionRows rows={rows} />
      {failed ? <Alert severity="error" sx={{ mt: 1 }}>{t('devices.os_catalogue_failed')}</Alert> : null}
    </Box>
  );
}

/**
 * The settings page's host OS update and supervisor update rows (spec 2 §2, §4): the
 * classification with its reason, the available targets and the single-device OS update
 * dialog (online devices with a target only); the supervisor status with the
 * newer releases and the single-device supervisor update dialog, disabled with the permission
 * tooltip for roles without `resin.device.update` and with the blocking reason otherwise.
 */
export function DeviceOsSettings({ device, canUpdate }: { device: DeviceDetails; canUpdate: boolean }) {
  const { t } = useTranslation();
  const { os, supervisor, targets, failed } = useOsOverviews(device);
  const [open, setOpen] = useState(false);
  const [osOpen, setOsOpen] = useState(false);
  const loading = <Typography variant="body2">{t('devices.os_line_loading')}</Typography>;
  return (
    <>
      <SettingRow title={t('devices.os_update')} description={t('devices.os_update_description')}>
        {os ? (
          <>
            <Typography variant="body2">
              <OsUpdateText os={os} pinned={targets?.osRelease} />
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('devices.os_targets')}: <OsTargetList os={os} />
            </Typography>
            {targets?.osUpdate ? (
              <Typography variant="body2" role="status">
                {targets.osUpdate.progress !== null
                  ? t('devices.os_update_progress', { status: OS_UPDATE_DEVICE_STATUS, step: targets.osUpdate.step ?? '', progress: targets.osUpdate.progress })
                  : OS_UPDATE_DEVICE_STATUS}
              </Typography>
            ) : null}
            {/* Disabled while the classification (shown above with its reason) allows no update. */}
            <PermissionTooltip allowed={canUpdate}>
              <Button variant="outlined" disabled={!canUpdate || osUpdateUnavailable(os) !== undefined} onClick={() => setOsOpen(true)} aria-haspopup="dialog">
                {t('devices.os_update_button')}
              </Button>
            </PermissionTooltip>
          </>
        ) : (
          loading
        )}
        {failed ? <Alert severity="error">{t('devices.os_catalogue_failed')}</Alert> : null}
        {osOpen && os ? (
          <Suspense fallback={null}>
            <OsUpdateDialog device={device} targets={os.targets} onClose={() => setOsOpen(false)} />
          </Suspense>
        ) : null}
      </SettingRow>
      <SettingRow title={t('devices.supervisor_update')} description={t('devices.supervisor_update_description')}>
        {supervisor ? (
          <>
            {supervisor.block ? null : (
              <Typography variant="body2" color="text.secondary">
                {t('devices.supervisor_newer')}: {supervisor.newer.map((r) => r.raw_version).join(', ')}
              </Typography>
            )}
            {targets?.supervisorRelease ? (
              <Typography variant="body2">{t('devices.supervisor_target_release', { version: targets.supervisorRelease })}</Typography>
            ) : null}
            <PermissionTooltip allowed={canUpdate}>
              <Button variant="outlined" disabled={!canUpdate || supervisor.block !== undefined} onClick={() => setOpen(true)} aria-haspopup="dialog">
                {t('devices.supervisor_update_button')}
              </Button>
            </PermissionTooltip>
            {supervisor.block ? <Typography variant="body2" color="text.secondary">{supervisor.block}</Typography> : null}
          </>
        ) : (
          loading
        )}
        {open && supervisor ? (
          <Suspense fallback={null}>
            <SupervisorUpdateDialog device={device} releases={supervisor.newer} onClose={() => setOpen(false)} />
          </Suspense>
        ) : null}
      </SettingRow>
    </>
  );
}
