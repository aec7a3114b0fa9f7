import { spawn, type ChildProcess } from 'node:child_process';
import { sleep } from './stats.js';

export interface ChildServerOptions {
  /** Label used in messages. */
  name: string;
  /** Arguments after `node` (the child runs the same Node binary as the bench). */
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Base URL of the server, e.g. http://127.0.0.1:1234. */
  baseUrl: string;
  /** Path that answers 200 once the server is ready. */
  readyPath: string;
  readyTimeoutMs: number;
  /** Echo the child's output to our stderr as it arrives. */
  verbose?: boolean;
  /** Called with each line the child prints (stdout and stderr). */
  onLine?: (line: string) => void;
}

const OUTPUT_TAIL_LINES = 200;

/**
 * A server in a child Node process: started, awaited until its ready path answers 200,
 * and stopped with SIGTERM (escalating to SIGKILL only if it does not exit in time).
 * The child's output is drained continuously and its tail kept for error messages.
 */
export class ChildServer {
  readonly #child: ChildProcess;
  readonly #tail: string[] = [];
  readonly #exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  #exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  private constructor(private readonly opts: ChildServerOptions) {
    this.#child = spawn(process.execPath, opts.args, {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#exited = new Promise((resolve) => {
      this.#child.once('exit', (code, signal) => {
        this.#exitInfo = { code, signal };
        resolve(this.#exitInfo);
      });
    });
    for (const stream of [this.#child.stdout, this.#child.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => this.#record(chunk));
    }
  }

  /** Starts the child and resolves once it serves its ready path. */
  static async start(opts: ChildServerOptions): Promise<ChildServer> {
    const server = new ChildServer(opts);
    try {
      await server.#waitUntilReady();
      return server;
    } catch (err) {
      await server.stop();
      throw err;
    }
  }

  get pid(): number {
    const pid = this.#child.pid;
    if (pid === undefined) throw new Error(`${this.opts.name}: the process did not start`);
    return pid;
  }

  get baseUrl(): string {
    return this.opts.baseUrl;
  }

  get running(): boolean {
    return this.#exitInfo === undefined;
  }

  /** The last lines the child printed. */
  outputTail(lines = 30): string {
    return this.#tail.slice(-lines).join('\n');
  }

  /** SIGTERM, then waits for the exit; SIGKILL after `graceMs`. Resolves with how it ended. */
  async stop(graceMs = 30_000): Promise<string> {
    if (this.#exitInfo) return describeExit(this.#exitInfo);
    this.#child.kill('SIGTERM');
    const exited = await Promise.race([this.#exited, sleep(graceMs).then(() => undefined)]);
    if (exited) return describeExit(exited);
    this.#child.kill('SIGKILL');
    return `${describeExit(await this.#exited)} (did not exit within ${graceMs} ms of SIGTERM)`;
  }

  async #waitUntilReady(): Promise<void> {
    const url = new URL(this.opts.readyPath, this.opts.baseUrl);
    const deadline = Date.now() + this.opts.readyTimeoutMs;
    while (Date.now() < deadline) {
      if (this.#exitInfo) {
        throw new Error(
          `${this.opts.name} exited before it was ready (${describeExit(this.#exitInfo)}):\n${this.outputTail()}`,
        );
      }
      const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
        async (res) => {
          await res.body?.cancel();
          return res.status === 200;
        },
        () => false,
      );
      if (ok) return;
      await sleep(250);
    }
    throw new Error(`${this.opts.name} was not ready within ${this.opts.readyTimeoutMs} ms:\n${this.outputTail()}`);
  }

  #record(chunk: string): void {
    if (this.opts.verbose) process.stderr.write(prefixLines(`[${this.opts.name}] `, chunk));
    const lines = chunk.split('\n').filter((l) => l !== '');
    if (this.opts.onLine) for (const line of lines) this.opts.onLine(line);
    this.#tail.push(...lines);
    if (this.#tail.length > OUTPUT_TAIL_LINES) this.#tail.splice(0, this.#tail.length - OUTPUT_TAIL_LINES);
  }
}

function describeExit({ code, signal }: { code: number | null; signal: NodeJS.Signals | null }): string {
  return signal ? `killed by ${signal}` : `exit code ${code}`;
}

function prefixLines(prefix: string, text: string): string {
  return text.replace(/^(?=.)/gm, prefix);
}
