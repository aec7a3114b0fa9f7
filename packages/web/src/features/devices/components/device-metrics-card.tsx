import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { DeviceDetails } from '../api/get-device';
import { metricColour, usagePercent } from '../device-rules';
import { formatMegabytes } from './format';

function MetricBar({ label, percent, detail }: { label: string; percent: number; detail: string }) {
  return (
    <Stack spacing={0.5}>
      <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
        <Typography variant="body2">{label}</Typography>
        <Typography variant="body2" color="text.secondary">
          {detail}
        </Typography>
      </Stack>
      <LinearProgress
        variant="determinate"
        value={percent}
        color={metricColour(percent)}
        aria-label={label}
        sx={{ height: 8, borderRadius: 1 }}
      />
    </Stack>
  );
}

/**
 * CPU, memory, storage and temperature as the device last reported them (spec 2 §2, §9: bar
 * colours by usage). Memory and storage come in MB (dialect §4.3); temperature is °C, shown
 * on a 0–100 scale.
 */
export function DeviceMetricsCard({ device }: { device: DeviceDetails }) {
  const { t } = useTranslation();
  const memory = usagePercent(device.memory_usage, device.memory_total);
  const storage = usagePercent(device.storage_usage, device.storage_total);
  const bars = [
    device.cpu_usage !== null ? { label: t('devices.cpu'), percent: Math.min(100, Math.max(0, device.cpu_usage)), detail: `${device.cpu_usage}%` } : null,
    memory !== undefined
      ? { label: t('devices.memory'), percent: memory, detail: t('devices.metric_of', { used: formatMegabytes(device.memory_usage!), total: formatMegabytes(device.memory_total!) }) }
      : null,
    storage !== undefined
      ? { label: t('devices.storage'), percent: storage, detail: t('devices.metric_of', { used: formatMegabytes(device.storage_usage!), total: formatMegabytes(device.storage_total!) }) }
      : null,
    device.cpu_temp !== null
      ? { label: t('devices.temperature'), percent: Math.min(100, Math.max(0, device.cpu_temp)), detail: t('devices.celsius', { value: device.cpu_temp }) }
      : null,
  ].filter((b) => b !== null);
  return (
    <Paper variant="outlined" component="section" aria-label={t('devices.metrics')} sx={{ p: 2, minWidth: 0 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {t('devices.metrics')}
      </Typography>
      {bars.length === 0 ? (
        <Typography color="text.secondary">{t('devices.no_metrics')}</Typography>
      ) : (
        <Stack spacing={2}>
          {bars.map((b) => (
            <MetricBar key={b.label} {...b} />
          ))}
        </Stack>
      )}
    </Paper>
  );
}
