import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { diagnosticsFileName, type ActionRun } from '@flotilla/model';
import { useSnackbar } from 'notistack';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { useActionRun, useStartActionRun } from '../api/actions-service';
import { diagnoseStdout, diagnosticsFileText } from '../diagnostics-rules';
import type { DiagnosticsDevice } from './diagnostics-page';
import { RunState } from './run-state';

/** Saves the run as `{uuid}_diagnostics_{timestamp}.txt` with STDOUT and STDERR sections (spec 2 §9). */
function download(uuid: string, run: ActionRun) {
  const blob = new Blob([diagnosticsFileText(run)], { type: 'text/plain;charset=utf-8' });
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = diagnosticsFileName(uuid, run.lastRun ? new Date(run.lastRun) : new Date());
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 0);
}

/**
 * Spec 2 §2, §4 diagnostics run: 'Run diagnostics' (disabled offline) moves to in progress,
 * polls every 5 s and shows stdout and stderr; a failure moves to error and shows a danger
 * toast with the error. The result downloads as a text file.
 */
export function DiagnoseTab({ device }: { device: DiagnosticsDevice }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const run = useActionRun(device.uuid, 'diagnose');
  const start = useStartActionRun(device.uuid, 'diagnose');
  const status = run.data?.status;
  // A run seen in progress on this page that ends in error is toasted once (spec 2 §4).
  const watched = useRef(false);
  useEffect(() => {
    if (status === 'in_progress') watched.current = true;
    else if (watched.current) {
      watched.current = false;
      if (status === 'error') enqueueSnackbar(t('diagnostics.diagnose_failed', { error: run.data?.error ?? '' }), { variant: 'error' });
    }
  }, [status, run.data?.error, enqueueSnackbar, t]);

  const running = start.isPending || status === 'in_progress';
  const button = (
    <span>
      <Button
        variant="contained"
        disabled={!device.is_online || running}
        loading={running}
        loadingPosition="start"
        onClick={() =>
          start.mutate(undefined, {
            onError: (err) => enqueueSnackbar(t('diagnostics.diagnose_failed', { error: errorMessage(err, t) }), { variant: 'error' }),
          })
        }
      >
        {t('diagnostics.run_diagnostics')}
      </Button>
    </span>
  );
  const data = run.data;
  const stdout = diagnoseStdout(data?.stdout);
  return (
    <Stack spacing={2} aria-label={t('diagnostics.tab_diagnostics')} role="region">
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        {device.is_online ? button : <Tooltip title={t('diagnostics.device_must_be_online')}>{button}</Tooltip>}
        {data ? <RunState run={start.isError ? { ...data, status: 'error' } : data} /> : null}
        {data && data.status !== 'idle' && data.status !== 'in_progress' ? (
          <Button variant="outlined" onClick={() => download(device.uuid, data)}>
            {t('diagnostics.download')}
          </Button>
        ) : null}
      </Stack>
      {!device.is_online ? <Typography color="text.secondary">{t('diagnostics.device_must_be_online')}</Typography> : null}
      {run.isError ? <Alert severity="error">{t('diagnostics.failed_query_diagnostics')}</Alert> : null}
      {start.isError ? <Alert severity="error">{errorMessage(start.error, t)}</Alert> : null}
      {data?.status === 'idle' ? <Typography color="text.secondary">{t('diagnostics.diagnose_never_run')}</Typography> : null}
      {data && data.status !== 'idle' ? (
        <>
          <Output label={t('diagnostics.stdout')} text={stdout} />
          <Output label={t('diagnostics.stderr')} text={data.error ?? ''} />
        </>
      ) : null}
    </Stack>
  );
}

function Output({ label, text }: { label: string; text: string }) {
  return (
    <Box component="section" aria-label={label}>
      <Typography variant="subtitle2" component="h3">
        {label}
      </Typography>
      <Box
        component="pre"
        sx={{ m: 0, p: 1.5, maxHeight: 480, overflow: 'auto', bgcolor: 'action.hover', borderRadius: 1, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
      >
        {text}
      </Box>
    </Box>
  );
}
