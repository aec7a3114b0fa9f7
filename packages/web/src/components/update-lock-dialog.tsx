import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  action: string;
  /** A line above the explanation (the batch's 'some did not run because update lock is set'). */
  message?: string;
  onForce: () => Promise<void>;
  onClose: () => void;
}

/**
 * Spec 2 §4: 'action blocked by update lock', then an offer to force the action. Shared by the
 * devices feature and the actions page; its strings are the devices.* bundle the device pages load.
 */
export function UpdateLockDialog({ action, message, onForce, onClose }: Props) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open onClose={onClose} aria-labelledby="update-lock-title">
      <DialogTitle id="update-lock-title">{t('devices.update_lock_title')}</DialogTitle>
      <DialogContent>
        {message ? <Alert severity="warning" sx={{ mb: 1 }}>{message}</Alert> : null}
        {t('devices.update_lock_text', { action })}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button
          color="error"
          variant="contained"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            void onForce().finally(() => setBusy(false));
          }}
        >
          {t('devices.force', { action })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
