import { useTranslation } from 'react-i18next';
import { NameDialog } from '../../../components/name-dialog';
import { useRenameDevice } from '../api/device-mutations';

/** Rename a device (summary card and settings page): the shared name dialog, defaulting to the current name. */
export function DeviceRenameDialog({ device, onClose }: { device: { uuid: string; device_name: string }; onClose: () => void }) {
  const { t } = useTranslation();
  const rename = useRenameDevice(device.uuid);
  return (
    <NameDialog
      title={t('devices.rename_title')}
      submitLabel={t('common.save')}
      label={t('devices.rename_label')}
      inputId="device-rename"
      requiredMessage={t('devices.confirm_empty')}
      defaultName={device.device_name}
      onSave={(name) => rename.mutateAsync(name)}
      success={() => t('devices.renamed')}
      onClose={onClose}
    />
  );
}
