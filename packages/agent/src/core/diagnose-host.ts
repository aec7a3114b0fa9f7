import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statfsSync } from 'node:fs';
import os from 'node:os';
import { dirname } from 'node:path';
import type Docker from 'dockerode';
import { LABEL } from './containers.js';
import { RecentLog, section, table } from './diagnose.js';
import {
  apiCheck,
  checksOutput,
  DIAGNOSE_VERSION,
  diskCheck,
  diskFromStatfs,
  engineCheck,
  formatBytes,
  memoryCheck,
  parseMeminfo,
  parseThrottled,
  restartsCheck,
  timeCheck,
  voltageCheck,
  type DeviceDiagnostics,
  type DeviceRuntimeFacts,
  type DiskFacts,
  type ServiceRestarts,
} from './health-checks.js';

/**
 * The real host's health checks and diagnose text (`flotilla-agent run`): the engine through
 * the Docker Engine API (Docker, Podman, balenaEngine), the data filesystem by statfs,
 * memory from /proc/meminfo, network from the kernel, under-voltage from the Raspberry Pi
 * firmware where it exists. Each fact that cannot be gathered becomes a failed check or a
 * line of diagnose's stderr, never an exception.
 */

export interface HostDiagnosticsOptions {
  uuid: string;
  /** The engine (engine mode), or null (`--engine none`). */
  docker: Docker | null;
  /** The agent's own data (config.json's directory); the engine's root is checked too when it tells. */
  dataDir: string;
  recentLog: RecentLog;
  /** Test seams. */
  procRoot?: string;
  throttledPath?: string;
}

const DEFAULT_THROTTLED = '/sys/devices/platform/soc/soc:firmware/get_throttled';
const ENGINE_TIMEOUT_MS = 10_000;

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

function withTimeout<T>(p: Promise<T>, what: string, ms = ENGINE_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function run(cmd: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: 5_000, maxBuffer: 256 * 1024 }, (err, stdout) => resolve(err ? null : stdout));
  });
}

/** The nearest existing directory of `path` (statfs needs one). */
function existing(path: string): string {
  let p = path;
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p);
  return p;
}

/** `/proc/net/route` → `destination/mask via gateway dev iface` lines. */
export function parseRoutes(text: string): string[] {
  const ip = (hex: string) => {
    const n = Number.parseInt(hex, 16);
    return [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255].join('.');
  };
  const bits = (hex: string) => Number.parseInt(hex, 16).toString(2).replace(/0/g, '').length;
  const out: string[] = [];
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 8) continue;
    const [iface, dest, gw, , , , metric, mask] = f as [string, string, string, string, string, string, string, string];
    const target = dest === '00000000' && mask === '00000000' ? 'default' : `${ip(dest)}/${bits(mask)}`;
    out.push(`${target}${gw !== '00000000' ? ` via ${ip(gw)}` : ''} dev ${iface} metric ${metric}`);
  }
  return out;
}

export class HostDiagnostics implements DeviceDiagnostics {
  constructor(private readonly o: HostDiagnosticsOptions) {}

  private read(path: string): string {
    return readFileSync(`${this.o.procRoot ?? ''}${path}`, 'utf8');
  }

  private async engineVersion(): Promise<{ version: string } | { error: string } | null> {
    const docker = this.o.docker;
    if (!docker) return null;
    try {
      await withTimeout(docker.ping(), 'ping');
      const v = await withTimeout(docker.version(), 'version');
      return { version: v.Version };
    } catch (err) {
      return { error: message(err) };
    }
  }

  private async engineRoot(): Promise<string | null> {
    if (!this.o.docker) return null;
    try {
      const info = (await withTimeout(this.o.docker.info(), 'info')) as { DockerRootDir?: string };
      return info.DockerRootDir || null;
    } catch {
      return null;
    }
  }

  private disk(path: string): DiskFacts | { error: string } {
    try {
      const at = existing(path);
      return diskFromStatfs(at, statfsSync(at));
    } catch (err) {
      return { error: message(err) };
    }
  }

  /** The tighter of the agent's data directory and the engine's storage (images, volumes). */
  private async dataDisk(): Promise<DiskFacts | { error: string }> {
    const candidates = [this.o.dataDir, ...[await this.engineRoot()].filter((p): p is string => p !== null)];
    const read = candidates.map((p) => this.disk(p));
    const ok = read.filter((d): d is DiskFacts => !('error' in d));
    if (ok.length === 0) return read[0]!;
    return ok.reduce((a, b) => (b.freeBytes / Math.max(1, b.totalBytes) < a.freeBytes / Math.max(1, a.totalBytes) ? b : a));
  }

  private memory(): { totalBytes: number; availableBytes: number } | { error: string } {
    try {
      return parseMeminfo(this.read('/proc/meminfo')) ?? { error: '/proc/meminfo has no MemTotal/MemAvailable' };
    } catch (err) {
      return { error: message(err) };
    }
  }

  private async restarts(): Promise<ServiceRestarts[] | { error: string } | null> {
    const docker = this.o.docker;
    if (!docker) return null;
    try {
      const list = await withTimeout(docker.listContainers({ all: true, filters: { label: [`${LABEL.deviceUuid}=${this.o.uuid}`] } }), 'list containers');
      const out: ServiceRestarts[] = [];
      for (const c of list) {
        const info = await withTimeout(docker.getContainer(c.Id).inspect(), 'inspect');
        out.push({ service: c.Labels?.[LABEL.serviceName] ?? c.Names?.[0]?.replace(/^\//, '') ?? c.Id.slice(0, 12), restartCount: info.RestartCount ?? 0, state: info.State?.Status ?? c.State });
      }
      return out;
    } catch (err) {
      return { error: message(err) };
    }
  }

  /** The firmware's throttled flags: sysfs first, then `vcgencmd get_throttled`; null when the hardware does not tell. */
  private async throttled(): Promise<{ value: number; source: string } | null> {
    const path = this.o.throttledPath ?? DEFAULT_THROTTLED;
    try {
      const value = parseThrottled(readFileSync(path, 'utf8'));
      if (value !== null) return { value, source: `get_throttled=0x${value.toString(16)}` };
    } catch {
      // not a Raspberry Pi kernel: try the firmware tool
    }
    if (this.o.throttledPath !== undefined) return null;
    const out = await run('vcgencmd', ['get_throttled']);
    const value = out === null ? null : parseThrottled(out);
    return value === null ? null : { value, source: `vcgencmd throttled=0x${value.toString(16)}` };
  }

  async checks(facts: DeviceRuntimeFacts) {
    const [engine, disk, restarts, throttled] = await Promise.all([this.engineVersion(), this.dataDisk(), this.restarts(), this.throttled()]);
    return checksOutput([engineCheck(engine), diskCheck(disk), memoryCheck(this.memory()), timeCheck(facts), restartsCheck(restarts), apiCheck(facts), voltageCheck(throttled)]);
  }

  async diagnose(facts: DeviceRuntimeFacts): Promise<{ stdout: string; stderr: string }> {
    const out: string[] = [];
    const err: string[] = [];
    out.push(
      section(`flotilla-agent diagnose ${DIAGNOSE_VERSION}`, [
        `time: ${new Date(facts.now).toISOString()}`,
        `device: ${this.o.uuid}`,
        `host: ${os.hostname()} ${os.type()} ${os.release()} ${os.arch()}, up ${Math.round(os.uptime() / 60)} min`,
        `node: ${process.version}, agent up ${Math.round(process.uptime())} s`,
        `cloud link: ${facts.linkUp ? 'up' : 'down'}; last successful poll: ${facts.lastPollOkAt === null ? 'never' : new Date(facts.lastPollOkAt).toISOString()}`,
      ]),
    );
    out.push(section('container engine', await this.engineSection(err)));
    out.push(section('containers', await this.containersSection(err)));
    out.push(section('disk', await this.diskSection(err)));
    out.push(section('memory', this.memorySection(err)));
    out.push(section('network', this.networkSection(err)));
    out.push(section('recent agent log', this.o.recentLog.snapshot()));
    return { stdout: out.join('\n'), stderr: err.join('\n') };
  }

  private async engineSection(err: string[]): Promise<string[]> {
    const docker = this.o.docker;
    if (!docker) return ['no container engine (--engine none): services are simulated'];
    const lines: string[] = [];
    try {
      const v = await withTimeout(docker.version(), 'version');
      lines.push(`version: ${v.Version} (API ${v.ApiVersion}, ${v.Os}/${v.Arch}, kernel ${v.KernelVersion ?? '?'})`);
      for (const c of (v as { Components?: { Name: string; Version: string }[] }).Components ?? []) lines.push(`component: ${c.Name} ${c.Version}`);
    } catch (e) {
      err.push(`engine version: ${message(e)}`);
    }
    try {
      const info = (await withTimeout(docker.info(), 'info')) as Record<string, unknown>;
      for (const key of ['Name', 'OperatingSystem', 'Driver', 'DockerRootDir', 'Containers', 'ContainersRunning', 'Images', 'NCPU', 'MemTotal', 'CgroupVersion']) {
        if (info[key] !== undefined) lines.push(`${key}: ${key === 'MemTotal' ? formatBytes(Number(info[key])) : String(info[key])}`);
      }
    } catch (e) {
      err.push(`engine info: ${message(e)}`);
    }
    return lines;
  }

  private async containersSection(err: string[]): Promise<string[]> {
    const docker = this.o.docker;
    if (!docker) return ['no container engine (--engine none)'];
    try {
      const list = await withTimeout(docker.listContainers({ all: true, filters: { label: [`${LABEL.deviceUuid}=${this.o.uuid}`] } }), 'list containers');
      const rows = [['NAME', 'SERVICE', 'STATE', 'STATUS', 'RESTARTS', 'IMAGE']];
      for (const c of list) {
        let restarts = '?';
        try {
          restarts = String((await withTimeout(docker.getContainer(c.Id).inspect(), 'inspect')).RestartCount ?? 0);
        } catch (e) {
          err.push(`inspect ${c.Id.slice(0, 12)}: ${message(e)}`);
        }
        rows.push([(c.Names?.[0] ?? c.Id).replace(/^\//, ''), c.Labels?.[LABEL.serviceName] ?? '-', c.State, c.Status, restarts, c.Image]);
      }
      return rows.length === 1 ? ['no container of this device'] : table(rows);
    } catch (e) {
      err.push(`containers: ${message(e)}`);
      return [];
    }
  }

  private async diskSection(err: string[]): Promise<string[]> {
    const lines: string[] = [];
    const root = await this.engineRoot();
    for (const [what, path] of [
      ['agent data', this.o.dataDir],
      ['engine storage', root],
      ['root filesystem', '/'],
    ] as const) {
      if (path === null) continue;
      const d = this.disk(path);
      if ('error' in d) err.push(`disk ${what} (${path}): ${d.error}`);
      else lines.push(`${what}: ${d.path}: ${formatBytes(d.freeBytes)} free of ${formatBytes(d.totalBytes)}`);
    }
    return lines;
  }

  private memorySection(err: string[]): string[] {
    try {
      const keep = /^(MemTotal|MemFree|MemAvailable|Buffers|Cached|SwapTotal|SwapFree):/;
      return this.read('/proc/meminfo')
        .split('\n')
        .filter((l) => keep.test(l))
        .map((l) => l.replace(/\s+/g, ' '));
    } catch (e) {
      err.push(`memory (/proc/meminfo): ${message(e)}`);
      return [`total ${formatBytes(os.totalmem())}, free ${formatBytes(os.freemem())} (from the OS; /proc/meminfo unreadable)`];
    }
  }

  private networkSection(err: string[]): string[] {
    const rows = [['INTERFACE', 'FAMILY', 'ADDRESS', 'MAC']];
    for (const [name, addrs] of Object.entries(os.networkInterfaces())) {
      for (const a of addrs ?? []) rows.push([name, a.family, a.cidr ?? a.address, a.mac]);
    }
    const lines = table(rows);
    try {
      lines.push('routes:', ...parseRoutes(this.read('/proc/net/route')).map((r) => `  ${r}`));
    } catch (e) {
      err.push(`routes (/proc/net/route): ${message(e)}`);
    }
    return lines;
  }
}
