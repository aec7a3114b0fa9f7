import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../../lib/notify';
import { useStartOsUpdate } from '../../api/device-os';
import type { DeviceDetails } from '../../api/get-device';
import { OS_UPDATE_NOT_STARTED, type OsUpdateTarget } from '../../os-rules';
import { ReleasePickDialog } from './release-pick-dialog';
import '../../i18n-os';

/**
 * Single-device host OS update (spec 2 §4, §7 startOsUpdate): choose one of the versions the
 * classification allows, confirm (a takeover, which re-partitions the disk, needs its own
 * acknowledgement; an ESR switch warns), then start it on the server's actions service; a
 * result other than `triggered`, or a refusal, shows 'Cannot start the update process' in the dialog.
 */
export function OsUpdateDialog({ device, targets, onClose }: { device: DeviceDetails; targets: readonly OsUpdateTarget[]; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const start = useStartOsUpdate(device.uuid);
  const target = (version: string) => targets.find((x) => x.version === version);
  return (
    <ReleasePickDialog
      title={t('devices.os_dialog_title', { name: device.device_name })}
      intro={t('devices.os_dialog_current', { version: device.os_version ?? '' })}
      chooseLabel={t('devices.os_dialog_choose')}
      options={targets.map((x) => ({ value: x.version, label: x.classification.takeover ? t('devices.os_takeover', { version: x.version }) : x.version }))}
      confirmation={(version) => t('devices.os_dialog_confirm', { name: device.device_name, version })}
      warning={(version) => (target(version)?.classification.state === 'updatableSwitchToEsr' ? t('devices.os_dialog_esr_warning') : undefined)}
      acknowledgement={(version) => (target(version)?.classification.takeover ? t('devices.os_dialog_takeover') : undefined)}
      submitLabel={t('devices.os_dialog_submit')}
      onSubmit={async (version) => {
        await start.mutateAsync(version);
        notify.success(t('devices.os_update_started', { version }));
        onClose();
      }}
      formatError={(message) => (message.startsWith(OS_UPDATE_NOT_STARTED) ? message : `${OS_UPDATE_NOT_STARTED}: ${message}`)}
      onClose={onClose}
    />
  );
}
