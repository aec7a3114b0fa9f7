import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PermissionTooltip } from '../../../../components/permission-tooltip';
import type { FleetAccess } from '../../../../lib/fleet-access';
import { useSetDeviceNote } from '../../api/device-mutations';
import { useDeviceSettingsFacts } from '../../api/device-settings';
import type { DeviceDetails } from '../../api/get-device';
import { DeviceNoteField } from '../device-note-field';
import { DeviceReleaseSetting } from './device-release-setting';
import { SettingRow } from '../../../../components/setting-row';
import { DeviceSupportSetting } from './device-support-setting';

// The rename form (react-hook-form, zod) loads when the dialog first opens.
const DeviceRenameDialog = lazy(async () => ({ default: (await import('../device-rename-dialog')).DeviceRenameDialog }));
// Public URL, move, local mode, deactivate and delete (switches, radios, confirm dialogs) load
// after the first paint: the route chunk stays within the 350 KB first-page budget.
// The host OS and supervisor update rows (catalogue queries, the update dialog) load after the first paint.
const DeviceOsSettings = lazy(async () => ({ default: (await import('../device-os/device-os-status')).DeviceOsSettings }));
const DeviceSettingsAdvanced = lazy(async () => ({ default: (await import('./device-settings-advanced')).DeviceSettingsAdvanced }));

/**
 * The device settings page (spec 2 §2 "Settings page"): rename, notes, release pin, public
 * URL, support access, move, local mode, deactivate and delete, each control disabled with
 * the permission tooltip when the caller's fleet role lacks its right (§6).
 * Host OS update (classification and targets) and supervisor update (status and the
 * single-device dialog) come from the catalogue; group updates wait for the fleet table's dialogs.
 */
export function DeviceSettingsPage({ device, access }: { device: DeviceDetails; access: FleetAccess }) {
  const { t } = useTranslation();
  const facts = useDeviceSettingsFacts(device.uuid);
  const canUpdate = access.can('resin.device.update');
  return (
    <Paper variant="outlined" sx={{ px: 2 }}>
      <RenameSetting device={device} canUpdate={canUpdate} />
      <SettingRow title={t('devices.note')}>
        <DeviceNoteFieldFor device={device} canUpdate={canUpdate} />
      </SettingRow>
      <DeviceReleaseSetting device={device} canUpdate={canUpdate} localMode={facts.data?.localMode ?? false} />
      <DeviceSupportSetting device={device} canUpdate={canUpdate} />
      <Suspense fallback={null}>
        <DeviceOsSettings device={device} canUpdate={canUpdate} />
      </Suspense>
      {facts.data ? (
        <Suspense fallback={<Typography sx={{ py: 2 }}>{t('devices.settings_loading')}</Typography>}>
          <DeviceSettingsAdvanced device={device} facts={facts.data} access={access} />
        </Suspense>
      ) : null}
      {facts.isError ? (
        <Alert severity="error" sx={{ my: 2 }}>
          {t('devices.page_load_failed')}
        </Alert>
      ) : null}
    </Paper>
  );
}

function DeviceNoteFieldFor({ device, canUpdate }: { device: DeviceDetails; canUpdate: boolean }) {
  const setNote = useSetDeviceNote(device.uuid);
  return <DeviceNoteField key={device.id} initialValue={device.note ?? ''} disabled={!canUpdate} onSave={(note) => setNote.mutateAsync(note)} />;
}

function RenameSetting({ device, canUpdate }: { device: DeviceDetails; canUpdate: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <SettingRow title={t('devices.settings_rename')} description={device.device_name}>
      <PermissionTooltip allowed={canUpdate}>
        <Button variant="outlined" disabled={!canUpdate} onClick={() => setOpen(true)}>
          {t('common.rename')}
        </Button>
      </PermissionTooltip>
      {open ? (
        <Suspense fallback={null}>
          <DeviceRenameDialog device={device} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </SettingRow>
  );
}
