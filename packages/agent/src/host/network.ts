import os from 'node:os';

/**
 * The device's local addresses as balena reports them: space-separated lists of the
 * non-internal IPv4 addresses and of the interfaces' MAC addresses.
 */
export function localNetwork(ifaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces()): { ipAddress: string; macAddress: string } {
  const ips: string[] = [];
  const macs: string[] = [];
  for (const [name, infos] of Object.entries(ifaces)) {
    // Container bridges (Docker's, Podman's, balenaEngine's) and VPN tunnels are not the device's LAN addresses.
    if (/^(docker|br-|veth|resin-|balena|supervisor0|tun|cni-podman|podman)/.test(name)) continue;
    for (const info of infos ?? []) {
      if (info.internal) continue;
      if (info.family === 'IPv4' && !ips.includes(info.address)) ips.push(info.address);
      if (info.mac && info.mac !== '00:00:00:00:00:00' && !macs.includes(info.mac.toUpperCase())) macs.push(info.mac.toUpperCase());
    }
  }
  return { ipAddress: ips.join(' '), macAddress: macs.join(' ') };
}
