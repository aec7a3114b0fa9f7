import { useTranslation } from 'react-i18next';
import { NameDialog } from '../../../components/name-dialog';
import { useNotify } from '../../../lib/notify';
import { useRenameDevice } from '../api/device-mutations';

/** Rename a device (summary card and settings page): the shared name dialog, defaulting to the current name. */
export function DeviceRenameDialog({ device, onClose }: { device: { uuid: string; device_name: string }; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const rename = useRenameDevice(device.uuid);
  return (
    <NameDialog
      title={t('devices.rename_title')}
      submitLabel={t('devices.save')}
      cancelLabel={t('devices.cancel')}
      label={t('devices.rename_label')}
      inputId="device-rename"
      requiredMessage={t('devices.confirm_empty')}
      defaultName={device.device_name}
      onSave={async (name) => {
        await rename.mutateAsync(name);
        onClose();
        notify.success(t('devices.renamed'));
      }}
      onClose={onClose}
    />
  );
}
