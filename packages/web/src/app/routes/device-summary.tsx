import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeviceSummaryFacts } from '../../features/devices/api/device-summary-facts';
import { DeviceDetailsCard } from '../../features/devices/components/device-details-card';
import { DeviceMetricsCard } from '../../features/devices/components/device-metrics-card';
import { useDeviceRouteContext } from './device-context';

// The services card (its queries, controls and dialogs) is its own chunk: the device page has
// no first-page budget left (ARCHITECTURE.md, 350 KB gzip). So are the logs panel (its
// virtualiser) and the terminal panel (xterm).
const DeviceServicesCard = lazy(async () => ({ default: (await import('../../features/devices/components/device-services-card')).DeviceServicesCard }));
const DeviceLogsPanel = lazy(() => import('../../features/device-logs/components/device-logs-panel'));
const DeviceTerminalSlot = lazy(() => import('./device-terminal-slot'));

/** Spec 2 §2: which summary panel is expanded; expanding one hides the others. */
export type SummaryPanelState = 'none' | 'logs' | 'tty';

/**
 * /devices/{uuid} summary (spec 2 §2 "Device pages"): the undervolted danger warning, the
 * device info card beside the logs panel, the metrics card and the services card, and the
 * terminal panel below them. Expanding the logs or the terminal panel (panel state
 * logs/tty) shows that panel alone; the state is the page's own (a reload shows every panel
 * again).
 */
export function DeviceSummaryRoute() {
  const { t } = useTranslation();
  const { device, access } = useDeviceRouteContext();
  const [panel, setPanel] = useState<SummaryPanelState>('none');
  const facts = useDeviceSummaryFacts(device.uuid);
  const expand = (which: Exclude<SummaryPanelState, 'none'>) => (on: boolean) => setPanel(on ? which : 'none');

  const logs = (
    <Box sx={{ display: panel === 'tty' ? 'none' : 'block' }}>
      {/* Mounted once local mode is known: a device in local mode gets no stream opened. */}
      {facts.data === undefined && !facts.isError ? null : (
        <Suspense fallback={null}>
          <DeviceLogsPanel
            key={device.uuid}
            uuid={device.uuid}
            fleetId={device.fleet.id}
            isLocalMode={facts.data?.localMode ?? false}
            canClear={access.can('resin.device_log.delete')}
            expanded={panel === 'logs'}
            onExpandedChange={expand('logs')}
          />
        </Suspense>
      )}
    </Box>
  );
  const terminal = (
    <Box sx={{ display: panel === 'logs' ? 'none' : 'block' }}>
      <Suspense fallback={null}>
        <DeviceTerminalSlot device={device} access={access} expanded={panel === 'tty'} onExpandedChange={expand('tty')} />
      </Suspense>
    </Box>
  );

  // One tree for every panel state (other parts become null), so expanding keeps the panels
  // mounted: the log lines and a terminal session survive it. The hidden panel stays mounted
  // but not displayed.
  const none = panel === 'none';
  return (
    <Stack spacing={2}>
      {none && device.is_undervolted ? <Alert severity="error">{t('devices.undervolted')}</Alert> : null}
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        {/* Keyed by device so a refetch after a rename does not reset the note being typed. */}
        {none ? <DeviceDetailsCard key={device.id} device={device} can={access.can} /> : null}
        {/* The panels' column as wide as the details card: log lines need the width. */}
        <Stack spacing={2} sx={{ flex: 2, minWidth: 0, width: '100%' }}>
          {logs}
          {none ? <DeviceMetricsCard device={device} /> : null}
          {none ? (
            <Suspense fallback={null}>
              <DeviceServicesCard device={device} can={access.can} />
            </Suspense>
          ) : null}
        </Stack>
      </Stack>
      {/* The terminal spans the page's width below (its columns follow the panel's width). */}
      {terminal}
    </Stack>
  );
}
