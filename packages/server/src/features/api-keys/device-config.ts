import { DEFAULT_POLL_INTERVAL_MS } from '@flotilla/model';

/**
 * A device's `config.json` in balenaOS's shape (the file balena-sdk's `os.getConfig` and
 * `POST /download-config` answer, and `flotilla-agent run --config` reads). Flotilla offers
 * no VPN: `vpnEndpoint`/`vpnPort` are kept because balenaOS expects them, and point at the API
 * host; device actions and the terminal go over the agent's cloud link instead.
 */
export interface DeviceConfig {
  applicationId: number;
  deviceType: string;
  userId: number;
  appUpdatePollInterval: number;
  listenPort: number;
  vpnPort: number;
  apiEndpoint: string;
  vpnEndpoint: string;
  registryEndpoint: string;
  deltaEndpoint: string;
  apiKey: string;
  developmentMode?: boolean;
}

export interface DeviceConfigInput {
  applicationId: number;
  deviceType: string;
  userId: number;
  apiKey: string;
  /** The server's public URL (https://host[:port]). */
  publicUrl: string;
  /** Where release images are stored (FLOTILLA_REGISTRY_HOST), else the API host. */
  registryHost?: string | undefined;
  /** Minutes, as balena-sdk's getConfig option; the default is the server's poll interval. */
  appUpdatePollIntervalMinutes?: number | undefined;
  developmentMode?: boolean | undefined;
}

/** The supervisor API port balenaOS devices listen on (balena's default). */
export const SUPERVISOR_LISTEN_PORT = 48484;

export function buildDeviceConfig(input: DeviceConfigInput): DeviceConfig {
  const api = new URL(input.publicUrl);
  const apiEndpoint = api.origin;
  return {
    applicationId: input.applicationId,
    deviceType: input.deviceType,
    userId: input.userId,
    appUpdatePollInterval: input.appUpdatePollIntervalMinutes !== undefined ? input.appUpdatePollIntervalMinutes * 60_000 : DEFAULT_POLL_INTERVAL_MS,
    listenPort: SUPERVISOR_LISTEN_PORT,
    vpnPort: 443,
    apiEndpoint,
    vpnEndpoint: api.hostname,
    registryEndpoint: input.registryHost ?? api.host,
    deltaEndpoint: apiEndpoint,
    apiKey: input.apiKey,
    ...(input.developmentMode !== undefined ? { developmentMode: input.developmentMode } : {}),
  };
}
