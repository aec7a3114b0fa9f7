import type { ActionRun } from '@flotilla/model';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { DateText } from '../../../components/date-text';

const COLOUR = { done: 'success', error: 'error', in_progress: 'info', configuring: 'info', idle: 'default' } as const;

/** A run's state (spec 2 §4: configuring, done, error, idle, in_progress) and when it last started. */
export function RunState({ run }: { run: ActionRun }) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
      <Typography variant="body2" component="span">
        {t('diagnostics.state')}
      </Typography>
      <Chip size="small" color={COLOUR[run.status]} label={t(`diagnostics.status_${run.status}`)} data-state={run.status} aria-label={t('diagnostics.state_label', { state: t(`diagnostics.status_${run.status}`) })} />
      {run.lastRun ? (
        <Typography variant="body2" color="text.secondary" component="span">
          {t('diagnostics.last_run')} <DateText value={run.lastRun} />
        </Typography>
      ) : null}
    </Stack>
  );
}
