import { fleetRoleCan, type FleetRole } from '@flotilla/model';
import { Button } from '@mui/material';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PermissionTooltip } from '../../../components/permission-tooltip';
import '../i18n';

// The dialog (and its SDK calls) loads when it is first opened.
const AddDeviceDialog = lazy(async () => ({ default: (await import('./add-device-dialog')).AddDeviceDialog }));

interface Props {
  fleet: { id: number; app_name: string; deviceType: { slug: string } | null };
  /** The caller's own role on the fleet. */
  role: FleetRole | undefined;
  /** Shown at the top of the dialog (the route's billing notice: free allowance reached). */
  notice?: ReactNode;
}

/**
 * "Add device" on the fleet's device table (the summary and the devices page). Enabled for
 * those the server lets make provisioning keys: operators and above by their own role
 * (provisioning-key.service.ts; provider staff rights do not include it).
 */
export function AddDeviceButton({ fleet, role, notice }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const allowed = fleetRoleCan(role, 'resin.api_key.read');
  return (
    <>
      <PermissionTooltip allowed={allowed}>
        <Button variant="contained" size="small" disabled={!allowed} onClick={() => setOpen(true)}>
          {t('add_device.button')}
        </Button>
      </PermissionTooltip>
      {open ? (
        <Suspense fallback={null}>
          <AddDeviceDialog fleet={fleet} notice={notice} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
