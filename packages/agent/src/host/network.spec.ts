import type os from 'node:os';
import { describe, expect, it } from 'vitest';
import { localNetwork } from './network.js';

const v4 = (address: string, mac: string, internal = false): os.NetworkInterfaceInfo => ({
  address,
  mac,
  internal,
  family: 'IPv4',
  netmask: '255.255.255.0',
  cidr: `${address}/24`,
});

describe('localNetwork', () => {
  it("reports the host's LAN addresses, not loopback or the container engines' bridges", () => {
    expect(
      localNetwork({
        lo: [v4('127.0.0.1', '00:00:00:00:00:00', true)],
        eth0: [v4('192.168.1.20', 'aa:bb:cc:dd:ee:01')],
        wlan0: [v4('10.0.0.7', 'aa:bb:cc:dd:ee:02')],
        docker0: [v4('172.17.0.1', '02:42:00:00:00:01')],
        'cni-podman0': [v4('10.88.0.1', '02:42:00:00:00:02')],
        podman1: [v4('10.89.0.1', '02:42:00:00:00:03')],
        'veth1234': [v4('169.254.1.1', '02:42:00:00:00:04')],
      }),
    ).toEqual({ ipAddress: '192.168.1.20 10.0.0.7', macAddress: 'AA:BB:CC:DD:EE:01 AA:BB:CC:DD:EE:02' });
  });
});
