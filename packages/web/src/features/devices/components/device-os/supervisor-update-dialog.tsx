import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../../lib/notify';
import { usePinSupervisorRelease } from '../../api/device-os';
import type { DeviceDetails } from '../../api/get-device';
import type { SupervisorRelease } from '../../os-rules';
import { ReleasePickDialog } from './release-pick-dialog';
import '../../i18n-os';

/**
 * Single-device supervisor update (spec 2 §4 "Supervisor update", §7 setSupervisorRelease):
 * choose one of the newer releases of the device's architecture, confirm, then
 * `device.pinToSupervisorRelease`. The server checks again; its refusal (400 with the
 * spec's message) stays in the dialog. A release without a Flotilla agent build (seeded
 * catalogue only) is marked: pinning it is allowed, but Flotilla's agent cannot install it.
 */
export function SupervisorUpdateDialog({ device, releases, onClose }: { device: DeviceDetails; releases: readonly SupervisorRelease[]; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const pin = usePinSupervisorRelease(device.uuid);
  const byId = (value: string) => releases.find((r) => String(r.id) === value);
  return (
    <ReleasePickDialog
      title={t('devices.supervisor_dialog_title', { name: device.device_name })}
      intro={
        device.supervisor_version ? t('devices.supervisor_dialog_current', { version: device.supervisor_version }) : t('devices.supervisor_dialog_current_unknown')
      }
      chooseLabel={t('devices.supervisor_dialog_choose')}
      options={releases.map((r) => ({
        value: String(r.id),
        label: r.hasAgentBuild === false ? `${r.raw_version} ${t('devices.supervisor_dialog_catalogue_only')}` : r.raw_version,
      }))}
      confirmation={(value) => t('devices.supervisor_dialog_confirm', { name: device.device_name, version: byId(value)?.raw_version ?? '' })}
      warning={(value) => (byId(value)?.hasAgentBuild === false ? t('devices.supervisor_dialog_catalogue_only_note') : undefined)}
      submitLabel={t('devices.supervisor_dialog_submit')}
      onSubmit={async (value) => {
        const release = byId(value)!;
        await pin.mutateAsync(release.id);
        notify.success(t('devices.supervisor_update_requested', { version: release.raw_version }));
        onClose();
      }}
      onClose={onClose}
    />
  );
}
