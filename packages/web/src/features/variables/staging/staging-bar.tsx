import { Alert, Button, Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import './i18n';

interface StagingBarProps {
  pending: number;
  applying: boolean;
  /** 'Some changes failed to apply' under the bar after a partly failed apply. */
  someFailed: boolean;
  onRevertAll: () => void;
  onApplyAll: () => void;
}

/**
 * The sticky bar of a staged table (spec 2 §2, §4): how many changes are pending, 'revert all
 * changes' after a confirmation, and 'apply all changes'. Shown only while something is
 * pending or the last apply partly failed.
 */
export function StagingBar({ pending, applying, someFailed, onRevertAll, onApplyAll }: StagingBarProps) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  if (pending === 0 && !someFailed) return null;
  return (
    <Paper
      component="section"
      aria-label={t('staging.bar_label')}
      elevation={4}
      sx={{ position: 'sticky', bottom: 16, zIndex: (theme) => theme.zIndex.appBar - 1, p: 2 }}
    >
      <Stack spacing={1}>
        {someFailed && (
          <Alert severity="error">
            <strong>{t('staging.some_failed')}</strong> {t('staging.some_failed_detail')}
          </Alert>
        )}
        {pending > 0 && (
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography role="status" sx={{ flexGrow: 1 }}>
              {t('staging.pending', { count: pending })}
            </Typography>
            <Button onClick={() => setConfirming(true)} disabled={applying}>
              {t('staging.revert_all')}
            </Button>
            <Button variant="contained" onClick={onApplyAll} loading={applying}>
              {t('staging.apply_all')}
            </Button>
          </Stack>
        )}
      </Stack>
      {confirming && (
        <ConfirmDialog
          title={t('staging.revert_all_title')}
          body={t('staging.revert_all_body')}
          confirmLabel={t('staging.revert_all_confirm')}
          onConfirm={async () => {
            onRevertAll();
            setConfirming(false);
          }}
          onClose={() => setConfirming(false)}
        />
      )}
    </Paper>
  );
}
