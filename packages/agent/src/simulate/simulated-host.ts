import { createHash } from 'node:crypto';
import type { Random } from '../core/backoff.js';
import type { Metrics, ServiceStatus } from '../core/report.js';

/**
 * What a virtual device looks like: identity (reproducible with a seed), network
 * addresses, a location around a few cities, and metrics that drift as a mean-reverting
 * random walk. Everything is plain numbers so 10,000 of them stay small.
 */

export const CITIES: readonly { name: string; lat: number; lon: number }[] = [
  { name: 'Athens', lat: 37.98, lon: 23.73 },
  { name: 'Berlin', lat: 52.52, lon: 13.4 },
  { name: 'Lisbon', lat: 38.72, lon: -9.14 },
  { name: 'Seattle', lat: 47.61, lon: -122.33 },
  { name: 'São Paulo', lat: -23.55, lon: -46.63 },
  { name: 'Nairobi', lat: -1.29, lon: 36.82 },
  { name: 'Tokyo', lat: 35.68, lon: 139.69 },
];

/** uuid and device key of virtual device `index`: derived from the seed, or random. */
export function simulatedIdentity(index: number, seed: number | undefined, random: Random): { uuid: string; deviceApiKey: string } {
  if (seed === undefined) {
    const hex = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');
    return { uuid: hex(32), deviceApiKey: hex(32) };
  }
  // The same seed gives the same devices, so a restarted simulation reuses them (key exchange).
  const h = (what: string) => createHash('sha256').update(`flotilla-sim:${seed}:${what}:${index}`).digest('hex').slice(0, 32);
  return { uuid: h('uuid'), deviceApiKey: h('key') };
}

export function simulatedNetwork(index: number): { ipAddress: string; macAddress: string } {
  const b = (index >> 8) & 0xff;
  const c = index & 0xff;
  const mac = ['02', 'f1', '0a', ((index >> 16) & 0xff).toString(16).padStart(2, '0'), b.toString(16).padStart(2, '0'), c.toString(16).padStart(2, '0')];
  return { ipAddress: `10.${(index >> 16) & 0xff}.${b}.${c}`, macAddress: mac.join(':').toUpperCase() };
}

/** Random coordinates within ~20 km of one of the cities, as balena's text fields. */
export function simulatedLocation(random: Random): { latitude: string; longitude: string } {
  const city = CITIES[Math.floor(random() * CITIES.length)]!;
  return { latitude: (city.lat + (random() - 0.5) * 0.4).toFixed(5), longitude: (city.lon + (random() - 0.5) * 0.4).toFixed(5) };
}

export interface DriftState {
  cpu: number;
  temp: number;
  mem: number;
  storage: number;
  memTotal: number;
  storageTotal: number;
}

export function initialDrift(random: Random): DriftState {
  const memTotal = [926, 1848, 3794, 7812][Math.floor(random() * 4)]!;
  const storageTotal = [14_000, 29_000, 58_000][Math.floor(random() * 3)]!;
  return {
    cpu: 5 + random() * 30,
    temp: 40 + random() * 15,
    mem: memTotal * (0.2 + random() * 0.4),
    storage: storageTotal * (0.1 + random() * 0.5),
    memTotal,
    storageTotal,
  };
}

/** One step of the walk: each metric moves randomly and is pulled back towards its mean. */
export function drift(s: DriftState, random: Random): DriftState {
  const walk = (v: number, mean: number, step: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v + (mean - v) * 0.1 + (random() - 0.5) * step));
  return {
    ...s,
    cpu: walk(s.cpu, 20, 20, 0, 100),
    temp: walk(s.temp, 48, 4, 30, 85),
    mem: walk(s.mem, s.memTotal * 0.45, s.memTotal * 0.05, s.memTotal * 0.05, s.memTotal * 0.98),
    // Storage creeps up (logs, data) and rarely shrinks.
    storage: Math.min(s.storageTotal * 0.99, Math.max(0, s.storage + (random() - 0.3) * 20)),
  };
}

export function driftMetrics(s: DriftState): Metrics {
  return {
    cpu_usage: Math.round(s.cpu),
    cpu_temp: Math.round(s.temp),
    memory_usage: Math.round(s.mem),
    memory_total: s.memTotal,
    storage_usage: Math.round(s.storage),
    storage_total: s.storageTotal,
    storage_block_device: '/dev/mmcblk0p6',
    cpu_id: null,
  };
}

/** Most services run; a few are one-shots that exited (Idle) or were left stopped. */
export function simulatedServiceStatus(random: Random): ServiceStatus {
  const r = random();
  return r < 0.05 ? 'Idle' : r < 0.08 ? 'Stopped' : 'Running';
}
