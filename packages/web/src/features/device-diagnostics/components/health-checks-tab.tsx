import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { HEALTH_CHECKS_MIN_OS } from '@flotilla/model';
import { useTranslation } from 'react-i18next';
import { useRunMutation } from '../../../lib/notify';
import { useActionRun, useStartActionRun } from '../api/actions-service';
import { healthCheckOutput, osBelowHealthChecksMin } from '../diagnostics-rules';
import type { DiagnosticsDevice } from './diagnostics-page';
import { RunState } from './run-state';

/**
 * Spec 2 §2 health checks: 'Run checks' (disabled offline), the run's state polled every
 * 15 s, each check's name, success and status; a warning below OS 2.11.0; 'Failed query
 * check' when the run cannot be read.
 */
export function HealthChecksTab({ device }: { device: DiagnosticsDevice }) {
  const { t } = useTranslation();
  const run = useActionRun(device.uuid, 'checks');
  const start = useStartActionRun(device.uuid, 'checks');
  const runMutation = useRunMutation();
  const running = start.isPending || run.data?.status === 'in_progress' || run.data?.status === 'configuring';
  const output = healthCheckOutput(run.data?.stdout);
  const button = (
    <span>
      <Button variant="contained" disabled={!device.is_online || running} loading={start.isPending} onClick={() => void runMutation(() => start.mutateAsync())}>
        {t('diagnostics.run_checks')}
      </Button>
    </span>
  );
  return (
    <Stack spacing={2} aria-label={t('diagnostics.tab_health_checks')} role="region">
      {osBelowHealthChecksMin(device.os_version) ? (
        <Alert severity="warning">{t('diagnostics.os_too_old', { version: HEALTH_CHECKS_MIN_OS })}</Alert>
      ) : null}
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        {device.is_online ? button : <Tooltip title={t('diagnostics.device_must_be_online')}>{button}</Tooltip>}
        {run.data ? <RunState run={run.data} /> : null}
      </Stack>
      {!device.is_online ? <Typography color="text.secondary">{t('diagnostics.device_must_be_online')}</Typography> : null}
      {run.isError ? <Alert severity="error">{t('diagnostics.failed_query_check')}</Alert> : null}
      {run.data?.status === 'error' && run.data.error ? <Alert severity="error">{run.data.error}</Alert> : null}
      {output && output.checks.length > 0 ? (
        <Table size="small" aria-label={t('diagnostics.checks')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('diagnostics.check_name')}</TableCell>
              <TableCell>{t('diagnostics.check_success')}</TableCell>
              <TableCell>{t('diagnostics.check_status')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {output.checks.map((check) => (
              <TableRow key={check.name}>
                <TableCell component="th" scope="row">
                  {check.name}
                </TableCell>
                <TableCell sx={{ color: check.success ? 'success.main' : 'error.main' }}>
                  {check.success ? t('diagnostics.check_passed') : t('diagnostics.check_failed')}
                </TableCell>
                <TableCell>{check.status}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
      {run.data && run.data.status === 'idle' ? <Typography color="text.secondary">{t('diagnostics.checks_never_run')}</Typography> : null}
    </Stack>
  );
}
