import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { recoveryCodeRows, recoveryCodesText } from '../two-factor-rules';

function download(filename: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Spec 1 §4: the codes two per row, downloadable as a text file; shown once. */
export function RecoveryCodesDialog({ codes, username, onClose }: { codes: string[]; username: string; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog open aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{t('twoFactor.recovery_title')}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('twoFactor.recovery_intro')}
        </Alert>
        <Box role="list" aria-label={t('twoFactor.recovery_title')} sx={{ display: 'grid', rowGap: 1 }}>
          {recoveryCodeRows(codes).map((row) => (
            <Box key={row.join()} sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', columnGap: 2 }}>
              {row.map((code) => (
                <Box key={code} role="listitem" data-testid="recovery-code" sx={{ fontFamily: 'monospace', fontSize: '1.05rem' }}>
                  {code}
                </Box>
              ))}
            </Box>
          ))}
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button
          onClick={() =>
            download('flotilla-recovery-codes.txt', recoveryCodesText(codes, t('twoFactor.recovery_file_header', { username })))
          }
        >
          {t('twoFactor.recovery_download')}
        </Button>
        <Button variant="contained" onClick={onClose}>
          {t('twoFactor.recovery_done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
