import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import '../i18n';
import { tabOf, type DiagnosticsTab } from '../diagnostics-rules';
import { DiagnoseTab } from './diagnose-tab';
import { HealthChecksTab } from './health-checks-tab';
import { SupervisorStateTab } from './supervisor-state-tab';

/** What the diagnostics page reads of the device (the shell's device has more). */
export interface DiagnosticsDevice {
  uuid: string;
  is_online: boolean;
  os_version: string | null;
  supervisor_version: string | null;
}

/**
 * /devices/{uuid}/diagnostics (spec 2 §2): health checks, diagnostics and supervisor state.
 * The route shows it only to callers holding resin.device.access_diagnostics; the server
 * refuses the actions service to everyone else too.
 */
export function DiagnosticsPage({ device }: { device: DiagnosticsDevice }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab = tabOf(params.get('tab'));
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Tabs
        value={tab}
        onChange={(_e, value: DiagnosticsTab) => setParams(value === 'health-checks' ? {} : { tab: value }, { replace: true })}
        aria-label={t('diagnostics.tabs')}
        sx={{ mb: 2 }}
      >
        <Tab value="health-checks" label={t('diagnostics.tab_health_checks')} id="diagnostics-tab-health-checks" aria-controls="diagnostics-panel" />
        <Tab value="diagnostics" label={t('diagnostics.tab_diagnostics')} id="diagnostics-tab-diagnostics" aria-controls="diagnostics-panel" />
        <Tab value="supervisor-state" label={t('diagnostics.tab_supervisor_state')} id="diagnostics-tab-supervisor-state" aria-controls="diagnostics-panel" />
      </Tabs>
      <div role="tabpanel" id="diagnostics-panel" aria-labelledby={`diagnostics-tab-${tab}`}>
        {tab === 'health-checks' ? <HealthChecksTab device={device} /> : null}
        {tab === 'diagnostics' ? <DiagnoseTab device={device} /> : null}
        {tab === 'supervisor-state' ? <SupervisorStateTab device={device} /> : null}
      </div>
    </Paper>
  );
}
