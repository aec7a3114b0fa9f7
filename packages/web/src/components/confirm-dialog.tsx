import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRunMutation } from '../lib/notify';

interface ConfirmDialogProps {
  title: string;
  body: string;
  confirmLabel: string;
  /** `common.cancel` unless the dialog names it otherwise. */
  cancelLabel?: string;
  /** Runs on confirm; the dialog shows progress until it settles. */
  onConfirm: () => Promise<unknown>;
  /**
   * The success toast. With it the dialog owns the outcome (`submitMutation`): the success
   * toast or the error toast, then it closes either way. Without it the caller does.
   */
  success?: string;
  /** After the success toast (e.g. leave the page of what was deleted). */
  onSuccess?: () => void;
  onClose: () => void;
}

/** A yes/no dialog for destructive actions (delete, revoke). */
export function ConfirmDialog({ title, body, confirmLabel, cancelLabel, onConfirm, success, onSuccess, onClose }: ConfirmDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const run = useRunMutation();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      if (success === undefined) await onConfirm();
      else await run(onConfirm, { success, onSuccess, onSettled: onClose });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{body}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={busy}>
          {cancelLabel ?? t('common.cancel')}
        </Button>
        <Button variant="contained" color="error" loading={busy} onClick={() => void confirm()}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
