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
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../../lib/errors';
import '../../i18n-os';

export interface ReleaseOption {
  value: string;
  label: string;
}

interface Props {
  title: string;
  /** What the device(s) run now, above the choice. */
  intro?: ReactNode;
  chooseLabel: string;
  options: readonly ReleaseOption[];
  /** The confirmation sentence for the chosen value. */
  confirmation: (value: string) => ReactNode;
  /** A warning shown with the confirmation (an ESR switch). */
  warning?: (value: string) => string | undefined;
  /** A statement the user must tick before submitting (a takeover re-partitions the disk). */
  acknowledgement?: (value: string) => string | undefined;
  /** Shown under the choice and the confirmation for the chosen value (a group's devices). */
  details?: (value: string) => ReactNode;
  /** Why the chosen value cannot be submitted (nothing to update), if so: the submit stays disabled. */
  blocked?: (value: string) => boolean;
  submitLabel: string;
  /** Resolves when done (the caller closes or moves on); a rejection stays in the dialog. */
  onSubmit: (value: string) => Promise<void>;
  /** The text of a rejection (default: the server's message). */
  formatError?: (message: string) => string;
  onClose: () => void;
}

/**
 * The pick-a-release dialog of the host OS and supervisor updates, one device or a group
 * (spec 2 §4): a radio list of the versions (first preselected), **Continue** to a
 * confirmation (with a warning and a required acknowledgement where the choice needs them),
 * then the submit; a refusal stays in the dialog so the user can go back and choose again.
 */
export function ReleasePickDialog(props: Props) {
  const { title, intro, chooseLabel, options, confirmation, warning, acknowledgement, details, blocked, submitLabel, onSubmit, formatError, onClose } = props;
  const { t } = useTranslation();
  const titleId = useId();
  const labelId = useId();
  const [chosen, setChosen] = useState<string | undefined>(options[0]?.value);
  const [confirming, setConfirming] = useState(false);
  const [accepted, setAccepted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const value = options.some((o) => o.value === chosen) ? chosen : undefined;
  const ack = value !== undefined ? acknowledgement?.(value) : undefined;
  const warn = value !== undefined ? warning?.(value) : undefined;
  const isBlocked = value === undefined || (blocked?.(value) ?? false);

  const submit = async () => {
    if (value === undefined) return;
    setError(undefined);
    setBusy(true);
    try {
      await onSubmit(value);
    } catch (err) {
      const message = errorMessage(err, t);
      setError(formatError ? formatError(message) : message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth={details ? 'md' : 'xs'}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        {intro ? <DialogContentText sx={{ mb: 2 }}>{intro}</DialogContentText> : null}
        {confirming && value !== undefined ? (
          <>
            <DialogContentText>{confirmation(value)}</DialogContentText>
            {warn ? (
              <Alert severity="warning" sx={{ mt: 2 }}>
                {warn}
              </Alert>
            ) : null}
            {ack ? <FormControlLabel sx={{ mt: 2 }} control={<Checkbox checked={accepted} onChange={(e) => setAccepted(e.target.checked)} />} label={ack} /> : null}
          </>
        ) : (
          <FormControl>
            <FormLabel id={labelId}>{chooseLabel}</FormLabel>
            <RadioGroup
              aria-labelledby={labelId}
              value={value ?? ''}
              onChange={(e) => {
                setChosen(e.target.value);
                setAccepted(false);
              }}
            >
              {options.map((o) => (
                <FormControlLabel key={o.value} value={o.value} control={<Radio />} label={o.label} />
              ))}
            </RadioGroup>
          </FormControl>
        )}
        {details && value !== undefined ? details(value) : null}
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
            <Button variant="contained" loading={busy} disabled={isBlocked || (ack !== undefined && !accepted)} onClick={() => void submit()}>
              {submitLabel}
            </Button>
          </>
        ) : (
          <>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button variant="contained" disabled={isBlocked} onClick={() => setConfirming(true)}>
              {t('devices.supervisor_dialog_next')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
