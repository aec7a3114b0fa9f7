import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
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
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../../lib/errors';
import { useNotify } from '../../../../lib/notify';
import { usePinSupervisorRelease } from '../../api/device-os';
import type { DeviceDetails } from '../../api/get-device';
import type { SupervisorRelease } from '../../os-rules';
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
  const titleId = useId();
  const labelId = useId();
  const pin = usePinSupervisorRelease(device.uuid);
  const [chosen, setChosen] = useState<number | undefined>(releases[0]?.id);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  const release = releases.find((r) => r.id === chosen);
  const busy = pin.isPending;

  const submit = async () => {
    if (!release) return;
    setError(undefined);
    try {
      await pin.mutateAsync(release.id);
      notify.success(t('devices.supervisor_update_requested', { version: release.raw_version }));
      onClose();
    } catch (err) {
      setError(errorMessage(err, t));
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{t('devices.supervisor_dialog_title', { name: device.device_name })}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {device.supervisor_version
            ? t('devices.supervisor_dialog_current', { version: device.supervisor_version })
            : t('devices.supervisor_dialog_current_unknown')}
        </DialogContentText>
        {confirming && release ? (
          <>
            <DialogContentText>{t('devices.supervisor_dialog_confirm', { name: device.device_name, version: release.raw_version })}</DialogContentText>
            {release.hasAgentBuild ? null : (
              <Alert severity="info" sx={{ mt: 2 }}>
                {t('devices.supervisor_dialog_catalogue_only_note')}
              </Alert>
            )}
          </>
        ) : (
          <FormControl>
            <FormLabel id={labelId}>{t('devices.supervisor_dialog_choose')}</FormLabel>
            <RadioGroup aria-labelledby={labelId} value={chosen ?? ''} onChange={(e) => setChosen(Number(e.target.value))}>
              {releases.map((r) => (
                <FormControlLabel
                  key={r.id}
                  value={r.id}
                  control={<Radio />}
                  label={
                    r.hasAgentBuild ? (
                      r.raw_version
                    ) : (
                      <>
                        {r.raw_version}{' '}
                        <Typography component="span" variant="caption" color="text.secondary">
                          {t('devices.supervisor_dialog_catalogue_only')}
                        </Typography>
                      </>
                    )
                  }
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
            <Button variant="contained" loading={busy} onClick={() => void submit()}>
              {t('devices.supervisor_dialog_submit')}
            </Button>
          </>
        ) : (
          <>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button variant="contained" disabled={!release} onClick={() => setConfirming(true)}>
              {t('devices.supervisor_dialog_next')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
