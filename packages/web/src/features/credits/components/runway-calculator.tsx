import { RUNWAY_MAX_DEVICES, RUNWAY_MAX_MONTHS, creditsNeeded } from '@flotilla/model';
import { Button, Paper, Stack, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput } from '../../../components/form-fields';
import { parseBoundedCount } from '../credits-rules';

/** Spec 3 §5 defaults. */
export const RUNWAY_DEFAULT_MONTHS = 12;
export const RUNWAY_DEFAULT_DEVICES = 1;

interface Props {
  currentDevices: number;
  includedDevices: number;
  balance: number;
  /** Buying opens the add-credits dialog with the needed quantity; undefined when the user cannot buy. */
  onBuy: ((quantity: number) => void) | undefined;
}

/** Spec 3 §5: credits needed = max(0, ceil((current + estimated − included) × months / 2) − balance). */
export function RunwayCalculator({ currentDevices, includedDevices, balance, onBuy }: Props) {
  const { t } = useTranslation();
  const [devices, setDevices] = useState(RUNWAY_DEFAULT_DEVICES);
  const [months, setMonths] = useState(RUNWAY_DEFAULT_MONTHS);
  const needed = creditsNeeded({ currentDevices, estimatedDevices: devices, includedDevices, months, balance });
  const button = (
    <Button variant="outlined" disabled={needed === 0 || onBuy === undefined} onClick={() => onBuy?.(needed)}>
      {t('credits.runway_buy', { count: needed })}
    </Button>
  );
  return (
    <Paper variant="outlined" sx={{ p: 3 }} component="section" aria-labelledby="credits-runway-title">
      <Typography variant="h6" component="h2" id="credits-runway-title" gutterBottom>
        {t('credits.runway_title')}
      </Typography>
      <Typography color="text.secondary" gutterBottom>
        {t('credits.runway_hint')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ my: 2 }}>
        <TextInput
          id="runway-devices"
          label={t('credits.runway_devices')}
          value={String(devices)}
          onChange={(e) => setDevices(parseBoundedCount(e.target.value, RUNWAY_MAX_DEVICES))}
          inputProps={{ inputMode: 'numeric', autoComplete: 'off' }}
        />
        <TextInput
          id="runway-months"
          label={t('credits.runway_months')}
          value={String(months)}
          onChange={(e) => setMonths(parseBoundedCount(e.target.value, RUNWAY_MAX_MONTHS))}
          inputProps={{ inputMode: 'numeric', autoComplete: 'off' }}
        />
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {t('credits.runway_current', { count: currentDevices, included: includedDevices, balance })}
      </Typography>
      <Typography sx={{ my: 1 }} data-testid="runway-needed" aria-live="polite">
        {t('credits.runway_needed', { count: needed })}
      </Typography>
      {needed === 0 ? (
        <Tooltip title={t('credits.no_credits_needed')} describeChild>
          <span style={{ display: 'inline-flex' }} tabIndex={0}>
            {button}
          </span>
        </Tooltip>
      ) : (
        button
      )}
    </Paper>
  );
}
