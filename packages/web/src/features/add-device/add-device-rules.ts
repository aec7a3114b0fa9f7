import { isArchitectureCompatibleWith } from '@flotilla/model';

/** Wraps a value in single quotes for sh, so the command runs as shown whatever it holds. */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:=@-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

export interface InstallCommandInput {
  /** The server as this browser reaches it (window.location.origin). */
  origin: string;
  fleetId: number;
  deviceType: string;
  provisioningKey: string;
}

/**
 * The Linux way in (issue 14 item 4): one command that downloads the installer from this
 * server and runs it with the fleet, device type and a fresh provisioning key
 * (GET /download/agent/install.sh; the server's packages/server/src/features/provisioning).
 */
export function installCommand({ origin, fleetId, deviceType, provisioningKey }: InstallCommandInput): string {
  const api = origin.replace(/\/+$/, '');
  return [
    `curl -fsSL ${shellQuote(`${api}/download/agent/install.sh`)} | sh -s --`,
    `--api ${shellQuote(api)}`,
    `--fleet ${fleetId}`,
    `--device-type ${shellQuote(deviceType)}`,
    `--provisioning-key ${shellQuote(provisioningKey)}`,
  ].join(' ');
}

/** The unit the installer writes when systemd runs (shown in the dialog and docs/add-device.md). */
export const SYSTEMD_UNIT_EXAMPLE = `# /etc/systemd/system/flotilla-agent.service
[Unit]
Description=Flotilla device agent
Wants=network-online.target
After=network-online.target docker.service podman.socket

[Service]
Environment=FLOTILLA_AGENT_ENGINE=docker
# Podman: Environment=DOCKER_HOST=unix:///run/podman/podman.sock
ExecStart=/usr/bin/node /usr/local/lib/flotilla/flotilla-agent.mjs run --config /etc/flotilla/config.json
Restart=always
RestartSec=5

[Install]
WantedBy=multi-user.target
`;

export interface DeviceTypeChoice {
  slug: string;
  name: string;
  arch: string;
}

/**
 * The device types a device of the fleet may have: those running the fleet type's CPU
 * architecture (the server's rule for registering and for POST /download-config), the
 * fleet's own type first, then by name. Without the fleet's type, none.
 */
export function compatibleDeviceTypes(types: readonly DeviceTypeChoice[], fleetSlug: string | undefined): DeviceTypeChoice[] {
  const fleetType = types.find((d) => d.slug === fleetSlug);
  if (!fleetType) return [];
  const others = types
    .filter((d) => d.slug !== fleetType.slug && isArchitectureCompatibleWith(d.arch, fleetType.arch))
    .sort((a, b) => a.name.localeCompare(b.name));
  return [fleetType, ...others];
}
