import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import { useId, type FormEventHandler, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** What a form gives its dialog: `useMutationForm`'s submit handler and pending state. */
export interface DialogForm {
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitting: boolean;
}

interface FormDialogProps {
  open?: boolean;
  title: string;
  submitLabel: string;
  /** `common.cancel` unless the dialog names it otherwise. */
  cancelLabel?: string;
  /** The form (`useMutationForm`), or its submit handler and pending state given one by one. */
  form?: DialogForm;
  submitting?: boolean;
  onSubmit?: FormEventHandler<HTMLFormElement>;
  submitDisabled?: boolean;
  /** The submit button's colour (`error` for a destructive one). */
  submitColor?: 'primary' | 'error';
  maxWidth?: 'xs' | 'sm' | 'md';
  /** Buttons in place of Cancel and submit (e.g. a lone Close once a created key is shown). */
  actions?: ReactNode;
  onClose: () => void;
  children: ReactNode;
}

/**
 * The one dialog holding a form: title, fields, Cancel and a named submit button. While the
 * form submits, the buttons show it and the dialog cannot be dismissed.
 */
export function FormDialog(props: FormDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const { open = true, title, submitLabel, submitDisabled, submitColor, maxWidth = 'sm', onClose, children } = props;
  const submitting = props.form?.submitting ?? props.submitting ?? false;
  const onSubmit = props.form?.onSubmit ?? props.onSubmit;
  return (
    <Dialog
      open={open}
      onClose={submitting ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth={maxWidth}
      slotProps={{ paper: { component: 'form', noValidate: true, onSubmit } as object }}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {children}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        {props.actions ?? (
          <>
            <Button onClick={onClose} disabled={submitting}>
              {props.cancelLabel ?? t('common.cancel')}
            </Button>
            <Button type="submit" variant="contained" color={submitColor} loading={submitting} disabled={submitDisabled}>
              {submitLabel}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
