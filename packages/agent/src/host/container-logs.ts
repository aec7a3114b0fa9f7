import { readFile, rename, writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import type { DeviceLogInput } from '@flotilla/model';
import { LABEL, type ContainerHost } from '../core/containers.js';
import type { DeviceEvent } from '../core/device.js';
import { LogStream, type LogStreamOptions } from '../core/log-stream.js';
import { LoggedContainerHost, systemLine, systemLinesFor, systemMessage, type SystemSink } from '../core/log-system.js';
import type { Scheduler } from '../core/scheduler.js';
import { CursorFilter, FrameDemuxer, LineSplitter, parseEngineLine, readCursor, sinceOf, type LogCursor } from './container-logs-demux.js';

/**
 * `flotilla-agent run`: every container of the device's release ships its stdout and stderr
 * through the engine's log stream (`container.logs({ follow, timestamps, since })`), as a
 * balena supervisor does. A container is attached when it starts (the engine's events, and a
 * periodic check that catches anything missed) and detached when its stream ends. Where
 * each container's shipping stopped is kept in a cursor file, so neither an agent restart
 * nor a container restart sends a line twice or loses one. The engine's container events also give the
 * log its "Service exited" lines.
 */

/** How long a container must have been up before its log is followed (see attach). */
const FOLLOW_SETTLE_MS = 2_000;

export interface ContainerLogsOptions {
  docker: Docker;
  uuid: string;
  onLine(line: DeviceLogInput): void;
  system: SystemSink;
  /** True while the agent itself stops or replaces containers (a death then is a kill, not an exit). */
  busy(): boolean;
  /** Where the per-container cursors are kept (JSON); without it they live in memory only. */
  cursorFile?: string;
  log(message: string): void;
  /** How often the containers are listed to catch a start the events missed (ms, default 10 s). */
  syncMs?: number;
  now?: () => number;
}

interface Attached {
  stream: Readable;
  service: string;
}

interface EngineEvent {
  Action?: string;
  status?: string;
  id?: string;
  Actor?: { ID?: string; Attributes?: Record<string, string> };
}

export class ContainerLogs {
  private readonly attached = new Map<string, Attached>();
  private readonly attaching = new Set<string>();
  private cursors: Record<string, LogCursor> = {};
  private readonly startedAt: number;
  private events: Readable | null = null;
  private syncTimer: NodeJS.Timeout | null = null;
  private eventsTimer: NodeJS.Timeout | null = null;
  private saveTimer: NodeJS.Timeout | null = null;
  private saving: Promise<void> = Promise.resolve();
  private stopped = false;
  /** Aborts follow requests still waiting for their answer when the agent stops. */
  private readonly abort = new AbortController();
  private readonly now: () => number;

  constructor(private readonly o: ContainerLogsOptions) {
    this.now = o.now ?? Date.now;
    this.startedAt = this.now();
  }

  async start(): Promise<void> {
    if (this.o.cursorFile) {
      try {
        const parsed = JSON.parse(await readFile(this.o.cursorFile, 'utf8')) as unknown;
        if (parsed && typeof parsed === 'object') {
          for (const [id, c] of Object.entries(parsed as Record<string, unknown>)) {
            const cursor = readCursor(c);
            if (cursor) this.cursors[id] = cursor;
          }
        }
      } catch {
        // No file yet (first start) or unreadable: containers already running start from now.
      }
    }
    this.watchEvents();
    // Not awaited: Podman answers a follow request only once the container writes a line,
    // so a silent container must not hold up the agent's start.
    void this.sync();
    const every = this.o.syncMs ?? 10_000;
    const loop = () => {
      this.syncTimer = setTimeout(() => void this.sync().finally(() => !this.stopped && loop()), every);
      this.syncTimer.unref();
    };
    loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of [this.syncTimer, this.eventsTimer, this.saveTimer]) if (t) clearTimeout(t);
    this.events?.destroy();
    this.abort.abort();
    for (const a of this.attached.values()) a.stream.destroy();
    this.attached.clear();
    await this.save();
  }

  /** Attaches every running container of the device that is not attached yet; forgets cursors of removed containers. */
  async sync(): Promise<void> {
    if (this.stopped) return;
    let list: Docker.ContainerInfo[];
    try {
      list = await this.o.docker.listContainers({ all: true, filters: { label: [`${LABEL.deviceUuid}=${this.o.uuid}`] } });
    } catch (err) {
      this.o.log(`container logs: listing containers failed (${err instanceof Error ? err.message : String(err)})`);
      return;
    }
    const ids = new Set(list.map((c) => c.Id));
    let forgot = false;
    for (const id of Object.keys(this.cursors)) {
      if (!ids.has(id)) {
        delete this.cursors[id];
        forgot = true;
      }
    }
    if (forgot) this.scheduleSave();
    for (const c of list) {
      if (c.State === 'running' || c.State === 'restarting') await this.attach(c.Id);
    }
  }

  private async attach(id: string): Promise<void> {
    if (this.stopped || this.attached.has(id) || this.attaching.has(id)) return;
    this.attaching.add(id);
    try {
      const container = this.o.docker.getContainer(id);
      const info = await container.inspect();
      const labels = info.Config.Labels ?? {};
      if (labels[LABEL.deviceUuid] !== this.o.uuid) return;
      const service = labels[LABEL.serviceName] ?? info.Name.replace(/^\//, '');
      const serviceIdText = labels[LABEL.serviceId];
      const serviceId = serviceIdText !== undefined && /^[0-9]+$/.test(serviceIdText) ? Number(serviceIdText) : undefined;
      const known = this.cursors[id];
      // Without a cursor: a container started while this agent runs ships from its start; one
      // that was already running ships from the agent's start (its earlier lines may have gone).
      const startedAt = Date.parse(info.State.StartedAt);
      const fresh = Number.isFinite(startedAt) && startedAt >= this.startedAt - 1_000;
      const cursor: LogCursor | null = known ?? (fresh ? null : { key: (BigInt(this.startedAt) * 1_000_000n).toString(), count: 0 });
      const since = cursor ? sinceOf(cursor) : 0;
      // A container that has just started may exit at once (a one-shot task, a crash before a
      // restart): Podman 4 deadlocks a start racing an exit while a log follow is attached,
      // so a fresh container is followed once it has stayed up for a moment.
      const age = this.now() - startedAt;
      if (Number.isFinite(startedAt) && age < FOLLOW_SETTLE_MS) {
        await new Promise((r) => setTimeout(r, FOLLOW_SETTLE_MS - age).unref());
        if (this.stopped || !(await container.inspect()).State.Running) return;
      }
      const stream = (await container.logs({ follow: true, stdout: true, stderr: true, timestamps: true, since })) as unknown as Readable;
      if (this.stopped) {
        stream.destroy();
        return;
      }
      this.attached.set(id, { stream, service });
      const filter = new CursorFilter(cursor);
      const tty = info.Config.Tty === true;
      const demux = new FrameDemuxer();
      const out = new LineSplitter();
      const err = new LineSplitter();
      const emit = (text: string, isStdErr: boolean) => {
        const line = parseEngineLine(text, isStdErr, this.now);
        if (!filter.accept(line)) return;
        const position = filter.position;
        if (position) this.cursors[id] = position;
        this.o.onLine({ message: line.message, timestamp: line.timestamp, isStdErr: line.isStdErr, ...(serviceId !== undefined ? { serviceId } : {}) });
      };
      stream.on('data', (chunk: Buffer) => {
        if (tty) {
          for (const l of out.feed(chunk)) emit(l, false);
        } else {
          for (const f of demux.feed(chunk)) for (const l of (f.stream === 'stderr' ? err : out).feed(f.data)) emit(l, f.stream === 'stderr');
        }
        this.scheduleSave();
      });
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        for (const l of out.end()) emit(l, false);
        for (const l of err.end()) emit(l, true);
        if (this.attached.get(id)?.stream === stream) this.attached.delete(id);
        this.scheduleSave();
        // Restarted already (restart policy, a restart action)? Attach again from the cursor.
        if (!this.stopped) setTimeout(() => void this.sync(), 200).unref();
      };
      stream.on('end', finish);
      stream.on('close', finish);
      stream.on('error', finish);
    } catch (err) {
      if (!this.stopped && (err as { statusCode?: number }).statusCode !== 404) this.o.log(`container logs: attaching ${id.slice(0, 12)} failed (${err instanceof Error ? err.message : String(err)})`);
    } finally {
      this.attaching.delete(id);
    }
  }

  private watchEvents(): void {
    if (this.stopped) return;
    const retry = () => {
      if (this.stopped || this.eventsTimer) return;
      this.events = null;
      this.eventsTimer = setTimeout(() => {
        this.eventsTimer = null;
        this.watchEvents();
        void this.sync();
      }, 5_000);
      this.eventsTimer.unref();
    };
    this.o.docker
      .getEvents({ filters: { type: ['container'], label: [`${LABEL.deviceUuid}=${this.o.uuid}`] }, abortSignal: this.abort.signal } as Docker.GetEventsOptions)
      .then((raw) => {
        const stream = raw as unknown as Readable;
        if (this.stopped) {
          stream.destroy();
          return;
        }
        this.events = stream;
        let rest = '';
        stream.on('data', (chunk: Buffer) => {
          const parts = (rest + chunk.toString('utf8')).split('\n');
          rest = parts.pop()!;
          for (const p of parts) {
            if (p.trim() === '') continue;
            try {
              this.onEngineEvent(JSON.parse(p) as EngineEvent);
            } catch {
              // Not JSON: ignore the line.
            }
          }
        });
        stream.on('error', retry);
        stream.on('end', retry);
      })
      .catch(retry);
  }

  private onEngineEvent(e: EngineEvent): void {
    const action = e.Action ?? e.status;
    const id = e.Actor?.ID ?? e.id;
    const attrs = e.Actor?.Attributes ?? {};
    if (id === undefined || attrs[LABEL.deviceUuid] !== this.o.uuid) return;
    const service = attrs[LABEL.serviceName] ?? attrs.name ?? id.slice(0, 12);
    if (action === 'start' || action === 'restart') {
      if (action === 'start' && !this.o.busy()) this.o.system(systemMessage.startedService(service));
      void this.attach(id);
    } else if (action === 'die' || action === 'died') {
      const code = Number(attrs.containerExitCode ?? attrs.exitCode ?? 0);
      if (this.o.busy()) this.o.system(systemMessage.killedService(service));
      else this.o.system(systemMessage.serviceExited(service, Number.isFinite(code) ? code : undefined), code !== 0);
    }
  }

  private scheduleSave(): void {
    if (!this.o.cursorFile || this.saveTimer || this.stopped) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.save();
    }, 1_000);
    this.saveTimer.unref();
  }

  private save(): Promise<void> {
    const file = this.o.cursorFile;
    if (!file) return Promise.resolve();
    const text = JSON.stringify(this.cursors);
    this.saving = this.saving
      .then(() => writeFile(`${file}.tmp`, text))
      .then(() => rename(`${file}.tmp`, file))
      .catch((err: unknown) => this.o.log(`container logs: could not write ${file} (${err instanceof Error ? err.message : String(err)})`));
    return this.saving;
  }
}

export interface AgentLogsOptions extends Omit<LogStreamOptions, 'scheduler'> {
  scheduler: Scheduler;
  /** The engine's containers (engine mode); without it only system lines are shipped. */
  docker?: Docker;
  containers?: ContainerHost;
  cursorFile?: string;
  log(message: string): void;
  syncMs?: number;
}

export interface AgentLogs {
  stream: LogStream;
  /** The container host to give the device (system lines for its operations). */
  containers: ContainerHost | undefined;
  system: SystemSink;
  /** Feed every device event here (reboots, configuration changes). */
  onEvent(event: DeviceEvent): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Log shipping of `flotilla-agent run`: one log stream, the containers' output and the agent's own lines. */
export function createAgentLogs(o: AgentLogsOptions): AgentLogs {
  const { docker, containers, cursorFile, syncMs, ...streamOpts } = o;
  const stream = new LogStream(streamOpts);
  const system: SystemSink = (message, isStdErr) => stream.push(systemLine(message, o.scheduler.now(), isStdErr));
  const logged = containers ? new LoggedContainerHost(containers, system) : undefined;
  const engineLogs = docker
    ? new ContainerLogs({
        docker,
        uuid: o.uuid,
        onLine: (line) => stream.push(line),
        system,
        busy: () => logged?.busy() ?? false,
        ...(cursorFile ? { cursorFile } : {}),
        ...(syncMs !== undefined ? { syncMs } : {}),
        log: o.log,
      })
    : undefined;
  return {
    stream,
    containers: logged,
    system,
    onEvent(event) {
      if (event.type === 'registered') stream.enable();
      for (const l of systemLinesFor(event)) system(l.message, l.isStdErr);
    },
    async start() {
      system(systemMessage.agentStarting());
      await engineLogs?.start();
    },
    async stop() {
      await engineLogs?.stop();
      await stream.close();
    },
  };
}
