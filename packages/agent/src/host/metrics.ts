import { readFileSync, readdirSync, statfsSync } from 'node:fs';
import os from 'node:os';
import type { Metrics } from '../core/report.js';

/**
 * Real host metrics for `run`, in the units balena reports: CPU % (from the deltas of
 * os.cpus() times between two samples), memory and storage in MB (storage via statfs on
 * /), CPU temperature in °C from /sys/class/thermal when the kernel exposes it.
 */

export interface CpuTimes {
  idle: number;
  total: number;
}

export function cpuTimes(cpus: readonly os.CpuInfo[]): CpuTimes {
  let idle = 0;
  let total = 0;
  for (const cpu of cpus) {
    const t = cpu.times;
    idle += t.idle;
    total += t.user + t.nice + t.sys + t.idle + t.irq;
  }
  return { idle, total };
}

/** Busy share of the time elapsed between two samples, 0–100 (0 when no time elapsed). */
export function cpuUsage(prev: CpuTimes, next: CpuTimes): number {
  const total = next.total - prev.total;
  const idle = next.idle - prev.idle;
  if (total <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((100 * (total - idle)) / total)));
}

const MB = 1024 * 1024;

/** Memory in use the way `free` counts it: total minus available (free + reclaimable). */
export function memoryFromMeminfo(meminfo: string | null, total: number, free: number): { usage: number; total: number } {
  const available = meminfo?.match(/^MemAvailable:\s+(\d+)\s+kB/m);
  const avail = available ? Number(available[1]) * 1024 : free;
  return { usage: Math.round((total - avail) / MB), total: Math.round(total / MB) };
}

export function storageFromStatfs(s: { blocks: number; bfree: number; bsize: number }): { usage: number; total: number } {
  return { usage: Math.round(((s.blocks - s.bfree) * s.bsize) / MB), total: Math.round((s.blocks * s.bsize) / MB) };
}

/** The hottest thermal zone in °C, or null when the kernel exposes none (containers, VMs). */
export function readCpuTemp(dir = '/sys/class/thermal'): number | null {
  let zones: string[];
  try {
    zones = readdirSync(dir).filter((z) => z.startsWith('thermal_zone'));
  } catch {
    return null;
  }
  let best: number | null = null;
  for (const zone of zones) {
    try {
      const milli = Number(readFileSync(`${dir}/${zone}/temp`, 'utf8').trim());
      if (Number.isFinite(milli)) best = Math.max(best ?? -Infinity, Math.round(milli / 1000));
    } catch {
      // unreadable zone: skip it
    }
  }
  return best;
}

/** Raspberry Pi firmware's throttled flags: bit 0 = under-voltage now. null elsewhere. */
export function readUndervolted(path = '/sys/devices/platform/soc/soc:firmware/get_throttled'): boolean | null {
  try {
    return (parseInt(readFileSync(path, 'utf8').trim(), 16) & 0x1) === 1;
  } catch {
    return null;
  }
}

function readOptional(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** A sampler keeping the previous CPU times, so each call reports usage since the last one. */
export function hostMetricsSampler(root = '/'): () => Metrics {
  let prev = cpuTimes(os.cpus());
  return () => {
    const next = cpuTimes(os.cpus());
    const usage = cpuUsage(prev, next);
    prev = next;
    const memory = memoryFromMeminfo(readOptional('/proc/meminfo'), os.totalmem(), os.freemem());
    let storage = { usage: 0, total: 0 };
    try {
      storage = storageFromStatfs(statfsSync(root));
    } catch {
      // statfs unavailable: report zeros rather than fail the whole report
    }
    return {
      cpu_usage: usage,
      cpu_temp: readCpuTemp(),
      memory_usage: memory.usage,
      memory_total: memory.total,
      storage_usage: storage.usage,
      storage_total: storage.total,
      storage_block_device: null,
      cpu_id: null,
    };
  };
}
