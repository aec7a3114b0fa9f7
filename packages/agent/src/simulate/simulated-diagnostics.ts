import type { Random } from '../core/backoff.js';
import { section, table } from '../core/diagnose.js';
import {
  apiCheck,
  checksOutput,
  DIAGNOSE_VERSION,
  diskCheck,
  engineCheck,
  formatBytes,
  memoryCheck,
  restartsCheck,
  timeCheck,
  voltageCheck,
  THROTTLED_BITS,
  type DeviceDiagnostics,
  type DeviceRuntimeFacts,
} from '../core/health-checks.js';

/**
 * A virtual device's health checks and diagnose text: the same checks and thresholds as a
 * real host (core/health-checks.ts) over made-up facts. Most runs pass; now and then a
 * device is low on disk or memory, has a service in a restart loop or an under-voltage
 * (about one check in twenty fails), so the dashboard's failure states show on a demo fleet.
 */

export interface SimulatedDiagnosticsOptions {
  uuid: string;
  ipAddress: string;
  macAddress: string;
  undervolted: boolean;
}

const GB = 1024 ** 3;

export function simulatedDiagnostics(o: SimulatedDiagnosticsOptions, random: Random): DeviceDiagnostics {
  const chance = (p: number) => random() < p;
  const disk = () => {
    const total = 32 * GB;
    const share = chance(0.05) ? 0.02 + random() * 0.05 : 0.3 + random() * 0.6;
    return { path: '/mnt/data', freeBytes: Math.round(total * share), totalBytes: total };
  };
  const memory = () => {
    const total = 4 * GB;
    const share = chance(0.05) ? 0.03 + random() * 0.05 : 0.25 + random() * 0.6;
    return { totalBytes: total, availableBytes: Math.round(total * share) };
  };
  const restarts = (facts: DeviceRuntimeFacts) => {
    const services = Object.entries(facts.serviceStatus).map(([service, status]) => ({ service, restartCount: 0, state: status.toLowerCase() }));
    const looping = services.length > 0 && chance(0.05) ? services[Math.floor(random() * services.length)] : undefined;
    if (looping) looping.restartCount = 5 + Math.floor(random() * 40);
    return services;
  };
  return {
    async checks(facts) {
      const throttled = chance(0.03) ? THROTTLED_BITS.underVoltageOccurred : 0;
      return checksOutput([
        engineCheck({ version: '20.10.17' }),
        diskCheck(disk()),
        memoryCheck(memory()),
        timeCheck(facts),
        restartsCheck(restarts(facts)),
        apiCheck(facts),
        voltageCheck({ value: throttled | (o.undervolted ? THROTTLED_BITS.underVoltageNow : 0), source: 'simulated get_throttled' }),
      ]);
    },
    async diagnose(facts) {
      const d = disk();
      const m = memory();
      const services = restarts(facts);
      const rows = [['NAME', 'SERVICE', 'STATE', 'RESTARTS'], ...services.map((s) => [`${s.service}_1`, s.service, s.state, String(s.restartCount)])];
      const stdout = [
        section(`flotilla-agent diagnose ${DIAGNOSE_VERSION}`, [`time: ${new Date(facts.now).toISOString()}`, `device: ${o.uuid} (simulated)`, `cloud link: ${facts.linkUp ? 'up' : 'down'}`]),
        section('container engine', ['version: 20.10.17 (API 1.41, linux/arm64) — simulated balenaEngine']),
        section('containers', services.length ? table(rows) : ['no container of this device']),
        section('disk', [`agent data: ${d.path}: ${formatBytes(d.freeBytes)} free of ${formatBytes(d.totalBytes)}`]),
        section('memory', [`MemTotal: ${Math.round(m.totalBytes / 1024)} kB`, `MemAvailable: ${Math.round(m.availableBytes / 1024)} kB`]),
        section('network', table([['INTERFACE', 'FAMILY', 'ADDRESS', 'MAC'], ['eth0', 'IPv4', `${o.ipAddress}/24`, o.macAddress]])),
        section('recent agent log', [`${new Date(facts.now).toISOString()} simulated device: nothing unusual`]),
      ].join('\n');
      const stderr = chance(0.2) ? 'routes: /proc/net/route not readable on this simulated device' : '';
      return { stdout, stderr };
    },
  };
}
