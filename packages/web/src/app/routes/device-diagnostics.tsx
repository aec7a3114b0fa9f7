import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { DiagnosticsPage } from '../../features/device-diagnostics/components/diagnostics-page';
import { useDeviceRouteContext } from './device-context';

/** Spec 2 §2, §6: the diagnostics page needs resin.device.access_diagnostics (the server refuses the calls too). */
export const DIAGNOSTICS_PERMISSION = 'resin.device.access_diagnostics';

/** /devices/{uuid}/diagnostics: health checks, diagnostics and supervisor state. */
export function DeviceDiagnosticsRoute() {
  const { t } = useTranslation();
  const { device, access } = useDeviceRouteContext();
  if (!access.can(DIAGNOSTICS_PERMISSION)) return <Typography>{t('diagnostics.unauthorized')}</Typography>;
  return <DiagnosticsPage device={device} />;
}
