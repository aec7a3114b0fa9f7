import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { Tooltip } from '../../../../components/lazy-tooltip';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PermissionTooltip } from '../../../../components/permission-tooltip';
import { useRunMutation } from '../../../../lib/notify';
import { sdk } from '../../../../lib/sdk';
import { useFleetAccessOf } from '../../../../lib/fleet-access-context';
import { useMoveFleets } from '../../api/device-settings';
import type { DeviceDetails } from '../../api/get-device';
import { deviceKey, fleetDevicesKey } from '../../api/keys';
import { moveCandidates, movePersistentStorageWarning, type MoveFleet } from '../../device-settings-rules';
import { SettingRow } from '../../../../components/setting-row';
import { paths } from '../../../../lib/paths';

/**
 * Spec 2 §5 Devices move: fleets with the device's CPU architecture; a fleet is disabled
 * unless the caller is an organization administrator or operator and up on it (the
 * effective fleet role covers both); warnings for old OS storage and a lost pin.
 */
export function DeviceMoveSetting({ device, architecture, canUpdate }: { device: DeviceDetails; architecture: string; canUpdate: boolean }) {
  const { t } = useTranslation();
  const run = useRunMutation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const fleets = useMoveFleets(canUpdate);
  const [target, setTarget] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const candidates = fleets.data ? moveCandidates(fleets.data, { fleetId: device.fleet.id, architecture }) : [];

  const move = async () => {
    if (target === null) return;
    setBusy(true);
    const moved = async () => {
      await sdk.models.device.move(device.uuid, target);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: deviceKey(device.uuid) }),
        queryClient.invalidateQueries({ queryKey: fleetDevicesKey(device.fleet.id) }),
        queryClient.invalidateQueries({ queryKey: fleetDevicesKey(target) }),
      ]);
    };
    // Spec 2 §2: after moving a device the user goes to /fleets/{id}.
    await run(moved, { success: t('devices.settings_moved'), onSuccess: () => void navigate(paths.application('fleet', target)) });
    setBusy(false);
  };

  return (
    <SettingRow title={t('devices.settings_move')} description={t('devices.settings_move_description')}>
      {!canUpdate ? (
        <PermissionTooltip allowed={false}>
          <Button variant="outlined" disabled>
            {t('devices.settings_move_button')}
          </Button>
        </PermissionTooltip>
      ) : fleets.isPending ? (
        <Typography variant="body2">{t('devices.settings_loading')}</Typography>
      ) : candidates.length === 0 ? (
        <Alert severity="info">{t('devices.settings_move_none')}</Alert>
      ) : (
        <>
          <RadioGroup
            aria-label={t('devices.settings_move_target')}
            value={target === null ? '' : String(target)}
            onChange={(e) => setTarget(Number(e.target.value))}
          >
            {candidates.map((f) => (
              <MoveOption key={f.id} fleet={f} />
            ))}
          </RadioGroup>
          {target !== null && movePersistentStorageWarning(device.os_version) ? (
            <Alert severity="warning">{t('devices.settings_move_storage_warning')}</Alert>
          ) : null}
          {target !== null && device.pinned ? <Alert severity="warning">{t('devices.settings_move_pin_warning')}</Alert> : null}
          <Button variant="outlined" disabled={target === null} loading={busy} onClick={() => void move()}>
            {t('devices.settings_move_button')}
          </Button>
        </>
      )}
    </SettingRow>
  );
}

function MoveOption({ fleet }: { fleet: MoveFleet }) {
  const { t } = useTranslation();
  const access = useFleetAccessOf(fleet.id);
  // Operator and up on the target (an organization administrator always is): those hold
  // the device update right there. Platform staff do not (spec 2 §6).
  const allowed = access?.can('resin.device.update') ?? false;
  const option = <FormControlLabel value={String(fleet.id)} control={<Radio />} label={fleet.app_name} disabled={!allowed} />;
  if (allowed || !access) return option;
  return (
    <Tooltip title={t('devices.settings_move_denied')} describeChild>
      <span>{option}</span>
    </Tooltip>
  );
}
