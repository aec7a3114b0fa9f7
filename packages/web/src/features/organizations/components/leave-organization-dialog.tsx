import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../lib/notify';
import { useLeaveOrganization } from '../api/leave-organization';

interface Props {
  organization: { id: number; name: string };
  membershipId: number;
  onClose: () => void;
  /** Called once the membership is gone (the page leaves). */
  onLeft: () => void;
}

export function LeaveOrganizationDialog({ organization, membershipId, onClose, onLeft }: Props) {
  const { t } = useTranslation();
  const notify = useNotify();
  const titleId = useId();
  const leave = useLeaveOrganization();

  const onConfirm = async () => {
    try {
      await leave.mutateAsync({ organizationId: organization.id, membershipId });
      notify.success(t('org_summary.left', { name: organization.name }));
      onLeft();
    } catch (err) {
      // e.g. 400 cannot_delete_last_organization_admin, shown in English (lib/errors.ts).
      notify.error(err);
      onClose();
    }
  };

  return (
    <Dialog open onClose={leave.isPending ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{t('org_summary.leave_title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('org_summary.leave_body', { name: organization.name })}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={leave.isPending}>
          {t('org_summary.cancel')}
        </Button>
        <Button variant="contained" color="error" loading={leave.isPending} onClick={() => void onConfirm()}>
          {t('org_summary.leave_submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
