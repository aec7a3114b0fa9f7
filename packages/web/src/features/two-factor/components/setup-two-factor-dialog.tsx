import { Alert, Box, CircularProgress, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { getSetupKey, useEnableTwoFactor } from '../api/two-factor';
import { formatPairingCode } from '../two-factor-rules';

/** The QR code as an SVG data: URL (the CSP allows data: images, not inline scripts). */
async function qrCodeDataUrl(text: string): Promise<string> {
  // Its own chunk: loaded only when someone sets up two-factor.
  const QRCode = await import('qrcode');
  const svg = await QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/**
 * Enable (spec 1 §4): a new secret shown as a QR code and as a pairing code, then a code
 * from the authenticator app turns two-factor on; `onEnabled` gets the first recovery codes.
 */
export function SetupTwoFactorDialog({ onClose, onEnabled }: { onClose: () => void; onEnabled: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const enable = useEnableTwoFactor();
  const { form, ...dialog } = useMutationForm({
    // The code as the app shows it, spaces and all; it is sent without them.
    schema: z.object({ code: z.string().check(z.overwrite((v) => v.replace(/\s/g, '')), z.minLength(1, t('twoFactor.code_required'))) }),
    defaultValues: { code: '' },
    submit: ({ code }) => enable.mutateAsync(code),
    success: t('twoFactor.enabled_success'),
    onSuccess: onEnabled,
  });
  // A new pending secret each time the dialog opens; never cached or retried.
  const setup = useQuery({ queryKey: ['two-factor-setup'], queryFn: getSetupKey, retry: false, gcTime: 0, staleTime: Infinity });
  const qr = useQuery({
    queryKey: ['two-factor-setup-qr', setup.data?.uri],
    queryFn: () => qrCodeDataUrl(setup.data?.uri ?? ''),
    enabled: !!setup.data,
    gcTime: 0,
    staleTime: Infinity,
  });

  return (
    <FormDialog form={dialog} title={t('twoFactor.setup_title')} submitLabel={t('twoFactor.setup_submit')} submitDisabled={!setup.data} onClose={onClose}>
      {setup.isError && <Alert severity="error">{t('twoFactor.load_failed')}</Alert>}
      {setup.isPending && <CircularProgress aria-label={t('app.loading')} sx={{ alignSelf: 'center' }} />}
      {setup.data && (
        <>
          <Typography variant="body2">{t('twoFactor.setup_scan')}</Typography>
          <Box sx={{ display: 'grid', placeItems: 'center', minHeight: 200 }}>
            {qr.data ? (
              <Box component="img" src={qr.data} alt={t('twoFactor.qr_alt')} sx={{ width: 200, height: 200 }} />
            ) : (
              <CircularProgress aria-label={t('app.loading')} />
            )}
          </Box>
          <Box>
            <Typography variant="caption" color="text.secondary" component="p">
              {t('twoFactor.pairing_code')}
            </Typography>
            <Typography data-testid="pairing-code" sx={{ fontFamily: 'monospace', fontSize: '1.05rem', wordBreak: 'break-all' }}>
              {formatPairingCode(setup.data.secret)}
            </Typography>
          </Box>
          <Typography variant="body2">{t('twoFactor.setup_enter_code')}</Typography>
          <TextInput
            {...form.register('code')}
            id="two-factor-setup-code"
            label={t('twoFactor.code')}
            autoComplete="one-time-code"
            inputProps={{ inputMode: 'numeric' }}
            error={dialog.fieldError('code')}
          />
        </>
      )}
    </FormDialog>
  );
}
