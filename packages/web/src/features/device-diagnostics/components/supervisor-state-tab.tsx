import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslation } from 'react-i18next';
import { useSupervisorCurrentState, useSupervisorTargetState } from '../api/supervisor-state';
import { errorBody, supervisorStateProblem } from '../diagnostics-rules';
import type { DiagnosticsDevice } from './diagnostics-page';

/**
 * Spec 2 §2 supervisor state: the current state from the device over its cloud link and the
 * target state the server holds (v2 below supervisor 13.0.0, else v3), each as JSON.
 * A current-state failure shows 'Supervisor Current State error: {body}', except balena's
 * 'No online device(s) found' (and an offline device), which shows the offline message.
 */
export function SupervisorStateTab({ device }: { device: DiagnosticsDevice }) {
  const { t } = useTranslation();
  const current = useSupervisorCurrentState(device.uuid);
  const target = useSupervisorTargetState(device.uuid, device.supervisor_version);
  const problem = current.isError ? supervisorStateProblem(current.error, device.is_online) : undefined;
  return (
    <Stack spacing={3} role="region" aria-label={t('diagnostics.tab_supervisor_state')}>
      <Box component="section" aria-label={t('diagnostics.current_state')}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
          <Typography variant="subtitle1" component="h3">
            {t('diagnostics.current_state')}
          </Typography>
          <Button size="small" onClick={() => void current.refetch()} disabled={current.isFetching}>
            {t('diagnostics.refresh')}
          </Button>
        </Stack>
        {current.isPending && current.isFetching ? <CircularProgress size={20} aria-label={t('diagnostics.loading')} /> : null}
        {problem?.kind === 'offline' ? <Alert severity="warning">{t('diagnostics.supervisor_offline')}</Alert> : null}
        {problem?.kind === 'error' ? <Alert severity="error">{t('diagnostics.supervisor_current_error', { body: problem.body })}</Alert> : null}
        {current.data !== undefined && !current.isError ? <Json value={current.data} /> : null}
      </Box>
      <Box component="section" aria-label={t('diagnostics.target_state')}>
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
          {t('diagnostics.target_state_version', { version: target.version })}
        </Typography>
        {target.isPending && target.isFetching ? <CircularProgress size={20} aria-label={t('diagnostics.loading')} /> : null}
        {target.isError ? <Alert severity="error">{t('diagnostics.supervisor_target_error', { body: errorBody(target.error) })}</Alert> : null}
        {target.data !== undefined ? <Json value={target.data} /> : null}
      </Box>
    </Stack>
  );
}

function Json({ value }: { value: unknown }) {
  return (
    <Box component="pre" sx={{ m: 0, p: 1.5, maxHeight: 600, overflow: 'auto', bgcolor: 'action.hover', borderRadius: 1, fontSize: 12 }}>
      {JSON.stringify(value, null, 2)}
    </Box>
  );
}
