import { defaultCreditThreshold } from '@flotilla/model';
import { Button, FormControlLabel, Paper, Stack, Switch, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput } from '../../../components/form-fields';
import { useRunMutation } from '../../../lib/notify';
import { useSetCreditNotification, type CreditNotification } from '../api/credits';
import { CREDIT_THRESHOLD_MAX, parseThreshold } from '../credits-rules';

interface Props {
  organizationId: number;
  featureId: number | null;
  notification: CreditNotification | null;
  deviceCount: number;
}

/**
 * Spec 3 §4/§5 notifications card: the toggle creates the record (on, with the default
 * threshold, twice the device count) or deletes it (off); the threshold is 0..max and Apply
 * is disabled while it is unchanged.
 */
export function CreditNotificationsCard({ organizationId, featureId, notification, deviceCount }: Props) {
  const { t } = useTranslation();
  const run = useRunMutation();
  const change = useSetCreditNotification(organizationId);
  const saved = notification?.threshold ?? defaultCreditThreshold(deviceCount);
  const [text, setText] = useState<string | null>(null);
  const value = text ?? String(saved);
  const threshold = parseThreshold(value);
  const busy = change.isPending;

  const toggle = (on: boolean) =>
    void run(
      () =>
        on
          ? change.mutateAsync({ kind: 'create', featureId: featureId ?? 0, threshold: threshold ?? defaultCreditThreshold(deviceCount) })
          : change.mutateAsync({ kind: 'delete', id: notification?.id ?? 0 }),
      { success: t(on ? 'credits.notifications_on' : 'credits.notifications_off'), onSuccess: () => setText(null) },
    );
  const apply = () =>
    void run(() => change.mutateAsync({ kind: 'update', id: notification?.id ?? 0, threshold: threshold ?? 0 }), {
      success: t('credits.notifications_updated'),
      onSuccess: () => setText(null),
    });

  return (
    <Paper variant="outlined" sx={{ p: 3 }} component="section" aria-labelledby="credits-notifications-title">
      <Typography variant="h6" component="h2" id="credits-notifications-title" gutterBottom>
        {t('credits.notifications_title')}
      </Typography>
      <FormControlLabel
        control={<Switch checked={notification !== null} disabled={busy || featureId === null} onChange={(e) => toggle(e.target.checked)} />}
        label={t('credits.notifications_toggle')}
      />
      {notification === null ? (
        <Typography color="text.secondary">{t('credits.notifications_off_hint')}</Typography>
      ) : (
        <Stack direction="row" spacing={2} sx={{ mt: 2, alignItems: 'flex-start' }}>
          <TextInput
            id="credits-threshold"
            label={t('credits.notifications_threshold')}
            value={value}
            onChange={(e) => setText(e.target.value)}
            error={threshold === null ? t('credits.notifications_threshold_invalid', { max: CREDIT_THRESHOLD_MAX.toLocaleString('en-US') }) : undefined}
            inputProps={{ inputMode: 'numeric', autoComplete: 'off' }}
            disabled={busy}
          />
          <Button variant="contained" sx={{ mt: 1 }} disabled={busy || threshold === null || threshold === notification.threshold} onClick={apply}>
            {t('credits.notifications_apply')}
          </Button>
        </Stack>
      )}
    </Paper>
  );
}
