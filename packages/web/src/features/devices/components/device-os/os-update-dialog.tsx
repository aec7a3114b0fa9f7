import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../../lib/errors';
import { useNotify } from '../../../../lib/notify';
import { useStartOsUpdate } from '../../api/device-os';
import type { DeviceDetails } from '../../api/get-device';
import { OS_UPDATE_NOT_STARTED, type OsUpdateTarget } from '../../os-rules';
import '../../i18n-os';

/**
 * Single-device host OS update (spec 2 §4, §7 startOsUpdate): choose one of the versions the
 * classification allows, confirm (a takeover, which re-partitions the disk, needs its own
 * acknowledgement), then `device.startOsUpdate`; a result other than `triggered`, or a
 * refusal, shows 'Cannot start the update process' in the dialog.
 */
export function OsUpdateDialog({ device, targets, onClose }: { device: DeviceDetails; targets: readonly OsUpdateTarget[]; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const titleId = useId();
  const labelId = useId();
  const start = useStartOsUpdate(device.uuid);
  const [chosen, setChosen] = useState<string | undefined>(targets[0]?.version);
  const [confirming, setConfirming] = useState(false);
  const [takeoverAccepted, setTakeoverAccepted] = useState(false);
  const [error, setError] = useState<string>();
  const target = targets.find((x) => x.version === chosen);
  const takeover = target?.classification.takeover ?? false;
  const busy = start.isPending;

  const submit = async () => {
    if (!target) return;
    setError(undefined);
    try {
      await start.mutateAsync(target.version);
      notify.success(t('devices.os_update_started', { version: target.version }));
      onClose();
    } catch (err) {
      const message = errorMessage(err, t);
      setError(message.startsWith(OS_UPDATE_NOT_STARTED) ? message : `${OS_UPDATE_NOT_STARTED}: ${message}`);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{t('devices.os_dialog_title', { name: device.device_name })}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('devices.os_dialog_current', { version: device.os_version ?? '' })}</DialogContentText>
        {confirming && target ? (
          <>
            <DialogContentText>{t('devices.os_dialog_confirm', { name: device.device_name, version: target.version })}</DialogContentText>
            {target.classification.state === 'updatableSwitchToEsr' ? (
              <Alert severity="warning" sx={{ mt: 2 }}>
                {t('devices.os_dialog_esr_warning')}
              </Alert>
            ) : null}
            {takeover ? (
              <FormControlLabel
                sx={{ mt: 2 }}
                control={<Checkbox checked={takeoverAccepted} onChange={(e) => setTakeoverAccepted(e.target.checked)} />}
                label={t('devices.os_dialog_takeover')}
              />
            ) : null}
          </>
        ) : (
          <FormControl>
            <FormLabel id={labelId}>{t('devices.os_dialog_choose')}</FormLabel>
            <RadioGroup aria-labelledby={labelId} value={chosen ?? ''} onChange={(e) => setChosen(e.target.value)}>
              {targets.map((x) => (
                <FormControlLabel
                  key={x.version}
                  value={x.version}
                  control={<Radio />}
                  label={x.classification.takeover ? t('devices.os_takeover', { version: x.version }) : x.version}
                />
              ))}
            </RadioGroup>
          </FormControl>
        )}
        {error ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        {confirming ? (
          <>
            <Button onClick={() => setConfirming(false)} disabled={busy}>
              {t('devices.supervisor_dialog_back')}
            </Button>
            <Button variant="contained" loading={busy} disabled={takeover && !takeoverAccepted} onClick={() => void submit()}>
              {t('devices.os_dialog_submit')}
            </Button>
          </>
        ) : (
          <>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button variant="contained" disabled={!target} onClick={() => setConfirming(true)}>
              {t('devices.supervisor_dialog_next')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
