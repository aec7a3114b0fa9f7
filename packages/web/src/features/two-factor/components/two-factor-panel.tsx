import { Button, Chip, Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useNotify } from '../../../lib/notify';
import { useSession } from '../../../lib/get-session';
import { useSessionClaims } from '../../../lib/get-session-claims';
import { isReverificationCancelled, useRecentAuth, useWithRecentAuth } from '../../../components/reverify-dialog';
import { useRegenerateRecoveryCodes } from '../api/two-factor';
import '../i18n';
import { DisableTwoFactorDialog } from './disable-two-factor-dialog';
import { RecoveryCodesDialog } from './recovery-codes-dialog';
import { SetupTwoFactorDialog } from './setup-two-factor-dialog';

type OpenDialog = 'setup' | 'disable' | 'regenerate' | null;

/**
 * The preferences 2fa tab (spec 1 §2, §4): enabled or disabled chip (the state read from the
 * session token: enabled means pending or passed); enable (re-verify, QR code and pairing
 * code, code, then the recovery codes), disable (password), regenerate recovery codes.
 */
export function TwoFactorPanel() {
  const { t } = useTranslation();
  const notify = useNotify();
  const session = useSession();
  const claims = useSessionClaims(session.data?.id);
  const ensureRecentAuth = useRecentAuth();
  const withRecentAuth = useWithRecentAuth();
  const regenerate = useRegenerateRecoveryCodes();
  const [open, setOpen] = useState<OpenDialog>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const enabled = claims?.twoFactor === 'pending' || claims?.twoFactor === 'passed';

  // Sensitive actions re-verify the identity first when the session is older than 20
  // minutes; closing the password dialog just cancels.
  const failed = (err: unknown) => {
    if (!isReverificationCancelled(err)) notify.error(err);
  };
  const openAfterRecentAuth = (next: OpenDialog) => {
    ensureRecentAuth().then(() => setOpen(next), failed);
  };

  return (
    <Paper variant="outlined" sx={{ p: 3 }} aria-labelledby="two-factor-title" component="section">
      <Stack spacing={2}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Typography id="two-factor-title" variant="h6" component="h2">
            {t('twoFactor.panel_title')}
          </Typography>
          <Chip
            size="small"
            data-testid="two-factor-status"
            color={enabled ? 'success' : 'default'}
            label={t(enabled ? 'twoFactor.enabled' : 'twoFactor.disabled')}
          />
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {t('twoFactor.panel_intro')}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
          {!enabled && (
            <Button variant="contained" onClick={() => openAfterRecentAuth('setup')}>
              {t('twoFactor.enable')}
            </Button>
          )}
          {enabled && (
            <>
              <Button variant="outlined" onClick={() => setOpen('regenerate')}>
                {t('twoFactor.regenerate')}
              </Button>
              <Button variant="outlined" color="error" onClick={() => setOpen('disable')}>
                {t('twoFactor.disable')}
              </Button>
            </>
          )}
        </Stack>
      </Stack>

      {open === 'setup' && (
        <SetupTwoFactorDialog
          onClose={() => setOpen(null)}
          onEnabled={(recoveryCodes) => {
            setOpen(null);
            setCodes(recoveryCodes);
          }}
        />
      )}
      {open === 'disable' && (
        <DisableTwoFactorDialog
          onClose={() => setOpen(null)}
          onDisabled={() => setOpen(null)}
        />
      )}
      {open === 'regenerate' && (
        <ConfirmDialog
          title={t('twoFactor.regenerate_title')}
          body={t('twoFactor.regenerate_body')}
          confirmLabel={t('twoFactor.regenerate_confirm')}
          onClose={() => setOpen(null)}
          onConfirm={async () => {
            try {
              setCodes(await withRecentAuth(() => regenerate.mutateAsync()));
              setOpen(null);
            } catch (err) {
              failed(err);
            }
          }}
        />
      )}
      {codes && <RecoveryCodesDialog codes={codes} username={session.data?.username ?? ''} onClose={() => setCodes(null)} />}
    </Paper>
  );
}
