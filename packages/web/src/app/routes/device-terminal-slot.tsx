import { useMemo } from 'react';
import type { FleetAccess } from '../../lib/fleet-access';
import type { DeviceDetails } from '../../features/devices/api/get-device';
import { useDeviceServices } from '../../features/devices/api/device-services';
import { useDeviceSummaryFacts } from '../../features/devices/api/device-summary-facts';
import TerminalPanel from '../../features/device-terminal/terminal-panel';

export interface DeviceTerminalSlotProps {
  device: DeviceDetails;
  access: FleetAccess;
  /** Panel state is 'tty'. */
  expanded: boolean;
  onExpandedChange: (expanded: boolean) => void;
}

/**
 * The device summary's terminal panel with its facts (spec 2 §2): the services' container
 * statuses (newest install of each), local mode, the ssh rights (spec 2 §6) and, for fleet
 * administrators, the session history. Composes the devices and device-terminal features.
 */
export function DeviceTerminalSlot({ device, access, expanded, onExpandedChange }: DeviceTerminalSlotProps) {
  const target = device.pinned ?? device.fleet.target;
  const services = useDeviceServices(device.uuid, target?.id ?? null);
  const facts = useDeviceSummaryFacts(device.uuid);
  const terminalServices = useMemo(
    () => (services.data ?? []).map((s) => ({ name: s.name, status: s.installs[0]?.status ?? '' })),
    [services.data],
  );
  return (
    <TerminalPanel
      uuid={device.uuid}
      deviceName={device.device_name}
      isOnline={device.is_online}
      isLocalMode={facts.data?.localMode ?? false}
      osVersion={device.os_version}
      services={terminalServices}
      canSsh={access.can('resin.device.ssh')}
      canSshHost={access.can('resin.device.ssh-host')}
      canReadSessions={access.role === 'administrator'}
      expanded={expanded}
      onExpandedChange={onExpandedChange}
    />
  );
}

export default DeviceTerminalSlot;
