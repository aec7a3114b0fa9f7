import { LOG_PANEL } from '@flotilla/model';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PermissionTooltip } from '../../../components/permission-tooltip';
import { useNotify } from '../../../lib/notify';
import { clearDeviceLogs, getLogHistory, useLogServices } from '../api/device-logs';
import { filterLogs, isFiltering, sourceOf, toggleSource, type LogFilter, type LogSource } from '../log-filter';
import { logsAsText, logsFileName } from '../log-format';
import { useDebounced, useElapsed, useLogStream, useStoredFlag, type LogStreamStatus } from '../use-log-stream';
import { LogLines } from './log-lines';
import '../i18n';

/**
 * What the device summary hands the logs panel (spec 2 §2: summary panels, panel state
 * none/logs/tty). Plain facts, so the feature imports no other feature.
 */
export interface DeviceLogsPanelProps {
  uuid: string;
  fleetId: number;
  isLocalMode: boolean;
  /** `resin.device_log.delete` (spec 2 §6); the server checks it again. */
  canClear: boolean;
  /** Panel state is 'logs'. */
  expanded: boolean;
  onExpandedChange: (expanded: boolean) => void;
}

const COLLAPSED_HEIGHT_PX = 360;

/**
 * The device's logs panel (spec 2 §2, §4 "Log stream", §9): live lines with a 5000-line
 * buffer, 'No logs yet' after 3 s, filters by source and text, UTC and hide-timestamp toggles
 * kept in localStorage, clear (confirmed; needs the right), download, expand. In local mode
 * the device sends no logs to the cloud: the panel says so and opens no stream.
 */
export function DeviceLogsPanel({ uuid, fleetId, isLocalMode, canClear, expanded, onExpandedChange }: DeviceLogsPanelProps) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId} sx={{ width: '100%', minWidth: 0 }}>
      <CardHeader
        title={t('deviceLogs.title')}
        slotProps={{ title: { id: titleId, variant: 'h6', component: 'h2' } }}
        action={
          <Button size="small" onClick={() => onExpandedChange(!expanded)} aria-pressed={expanded}>
            {expanded ? t('deviceLogs.collapse') : t('deviceLogs.expand')}
          </Button>
        }
      />
      <CardContent sx={{ pt: 0 }}>
        {isLocalMode ? (
          <Alert severity="info">{t('deviceLogs.local_mode')}</Alert>
        ) : (
          <LiveLogs uuid={uuid} fleetId={fleetId} canClear={canClear} expanded={expanded} />
        )}
      </CardContent>
    </Card>
  );
}

export default DeviceLogsPanel;

function LiveLogs({ uuid, fleetId, canClear, expanded }: { uuid: string; fleetId: number; canClear: boolean; expanded: boolean }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const { buffer, status, clear } = useLogStream(uuid, true);
  const services = useLogServices(fleetId);
  const [utc, setUtc] = useStoredFlag(LOG_PANEL.utcModeKey);
  const [hideTimestamps, setHideTimestamps] = useStoredFlag(LOG_PANEL.hideTimestampsKey);
  const [hidden, setHidden] = useState<ReadonlySet<LogSource>>(new Set());
  const [text, setText] = useState('');
  const debouncedText = useDebounced(text, LOG_PANEL.filterDebounceMs);
  const [clearedAt, setClearedAt] = useState(0);
  const waited = useElapsed(LOG_PANEL.noLogsAfterMs, clearedAt);
  const [confirmClear, setConfirmClear] = useState(false);
  const [downloading, setDownloading] = useState(false);

  const serviceNames = useMemo(() => new Map((services.data ?? []).map((s) => [s.id, s.name])), [services.data]);
  const filter: LogFilter = useMemo(() => ({ hidden, text: debouncedText }), [hidden, debouncedText]);
  const shown = useMemo(() => filterLogs(buffer.lines, filter), [buffer.lines, filter]);

  // Sources to filter by: system lines, the fleet's services, and any other service a line named.
  const sources = useMemo(() => {
    const list: { source: LogSource; label: string }[] = [{ source: 'system', label: t('deviceLogs.system_logs') }];
    const seen = new Set<LogSource>(['system']);
    for (const s of services.data ?? []) {
      list.push({ source: `service:${s.id}`, label: s.name });
      seen.add(`service:${s.id}`);
    }
    for (const line of buffer.lines) {
      const source = sourceOf(line);
      if (!seen.has(source)) {
        seen.add(source);
        list.push({ source, label: `service ${line.serviceId}` });
      }
    }
    return list;
  }, [services.data, buffer.lines, t]);

  const download = async () => {
    setDownloading(true);
    try {
      const lines = await getLogHistory(uuid);
      const blob = new Blob([logsAsText(lines, serviceNames, { utc, systemLabel: t('deviceLogs.system') })], { type: 'text/plain;charset=utf-8' });
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = logsFileName(uuid, new Date());
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      notify.error(err);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Stack spacing={1.5}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        <StatusChip status={status} />
        <Box role="group" aria-label={t('deviceLogs.sources')} sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
          {sources.map(({ source, label }) => {
            const on = !hidden.has(source);
            return (
              <Chip
                key={source}
                label={label}
                size="small"
                clickable
                role="button"
                aria-pressed={on}
                color={on ? 'primary' : 'default'}
                variant={on ? 'filled' : 'outlined'}
                onClick={() => setHidden((h) => toggleSource({ hidden: h, text: '' }, source).hidden)}
              />
            );
          })}
        </Box>
        <TextField
          size="small"
          label={t('deviceLogs.search')}
          value={text}
          onChange={(e) => setText(e.target.value.slice(0, 500))}
          sx={{ minWidth: 180, flex: '1 1 180px' }}
        />
      </Stack>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        <FormControlLabel control={<Switch size="small" checked={utc} onChange={(e) => setUtc(e.target.checked)} />} label={t('deviceLogs.utc')} />
        <FormControlLabel
          control={<Switch size="small" checked={hideTimestamps} onChange={(e) => setHideTimestamps(e.target.checked)} />}
          label={t('deviceLogs.hide_timestamps')}
        />
        <Box sx={{ flex: 1 }} />
        {isFiltering(filter) ? (
          <Typography variant="body2" color="text.secondary">
            {t('deviceLogs.lines_shown', { shown: shown.length, total: buffer.lines.length })}
          </Typography>
        ) : null}
        <Button size="small" variant="outlined" loading={downloading} onClick={() => void download()}>
          {t('deviceLogs.download')}
        </Button>
        <PermissionTooltip allowed={canClear}>
          <Button size="small" variant="outlined" color="error" disabled={!canClear} onClick={() => setConfirmClear(true)}>
            {t('deviceLogs.clear')}
          </Button>
        </PermissionTooltip>
      </Stack>
      {buffer.lines.length === 0 ? (
        <Box sx={{ height: expanded ? 120 : 80, display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: 'grey.900', color: 'grey.400', borderRadius: 1 }}>
          {waited ? t('deviceLogs.no_logs_yet') : null}
        </Box>
      ) : shown.length === 0 ? (
        <Typography color="text.secondary">{t('deviceLogs.no_matching_lines')}</Typography>
      ) : (
        <LogLines
          lines={shown}
          serviceNames={serviceNames}
          utc={utc}
          hideTimestamps={hideTimestamps}
          height={expanded ? LOG_PANEL.maxHeightPx : COLLAPSED_HEIGHT_PX}
          label={t('deviceLogs.log_label')}
        />
      )}
      {confirmClear ? (
        <ConfirmDialog
          title={t('deviceLogs.clear_title')}
          body={t('deviceLogs.clear_body')}
          confirmLabel={t('deviceLogs.clear_confirm')}
          success={t('deviceLogs.cleared')}
          onConfirm={async () => {
            await clearDeviceLogs(uuid);
            clear();
            setClearedAt(Date.now());
          }}
          onClose={() => setConfirmClear(false)}
        />
      ) : null}
    </Stack>
  );
}

function StatusChip({ status }: { status: LogStreamStatus }) {
  const { t } = useTranslation();
  const label = status === 'live' ? t('deviceLogs.live') : status === 'reconnecting' ? t('deviceLogs.reconnecting') : t('deviceLogs.connecting');
  return (
    <Chip
      size="small"
      role="status"
      data-testid="device-logs-status"
      data-status={status}
      label={label}
      color={status === 'live' ? 'success' : status === 'reconnecting' ? 'warning' : 'default'}
      variant="outlined"
    />
  );
}
