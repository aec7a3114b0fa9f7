import { WsConnection } from '@flotilla/agent';

/**
 * A full garbage collection in a Node process started with `--inspect=host:port`, through
 * the inspector protocol (HeapProfiler.collectGarbage). Memory figures read right after it
 * count what is live, not garbage the collector has not got to yet.
 */
export async function collectGarbage(inspectUrl: string): Promise<void> {
  await inspectorCall(inspectUrl, 'HeapProfiler.collectGarbage', {});
}

/** `process.memoryUsage()` of the inspected process, in MB. */
export async function memoryUsageMb(inspectUrl: string): Promise<{ heapUsed: number; external: number; arrayBuffers: number }> {
  const m = await evaluateJson<{ heapUsed: number; external: number; arrayBuffers: number }>(inspectUrl, 'JSON.stringify(process.memoryUsage())');
  const mb = (n: number) => n / 1024 / 1024;
  return { heapUsed: mb(m.heapUsed), external: mb(m.external), arrayBuffers: mb(m.arrayBuffers) };
}

/** Evaluates `expression` (which must return a JSON string) in the inspected process; resolves with the parsed value. */
export async function evaluateJson<T>(inspectUrl: string, expression: string): Promise<T> {
  const answer = (await inspectorCall(inspectUrl, 'Runtime.evaluate', { expression, returnByValue: true })) as {
    result?: { value?: string };
    exceptionDetails?: { text?: string; exception?: { description?: string } };
  };
  if (answer.exceptionDetails) throw new Error(`evaluate: ${answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text ?? 'exception'}`);
  return JSON.parse(answer.result?.value ?? 'null') as T;
}

/**
 * The inspected process's event-loop delay since the previous call (ms), from a
 * `monitorEventLoopDelay` histogram this installs in it on the first call (10 ms resolution).
 */
export async function eventLoopDelayMs(inspectUrl: string): Promise<{ p50: number; p99: number; max: number; mean: number }> {
  return evaluateJson(
    inspectUrl,
    `(() => {
      const h = (globalThis.__benchLoopDelay ??= (() => {
        const m = process.getBuiltinModule('node:perf_hooks').monitorEventLoopDelay({ resolution: 10 });
        m.enable();
        return m;
      })());
      const ms = (ns) => (Number.isFinite(ns) ? ns / 1e6 : 0);
      const r = { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), mean: ms(h.mean) };
      h.reset();
      return JSON.stringify(r);
    })()`,
  );
}

/** One inspector protocol call in a session of its own; resolves with its result. */
async function inspectorCall(inspectUrl: string, method: string, params: Record<string, unknown>): Promise<unknown> {
  const session = await InspectorSession.open(inspectUrl);
  try {
    return await session.call(method, params);
  } finally {
    session.close();
  }
}

/**
 * A lasting inspector protocol session: what a domain keeps per session (the sampling heap
 * profiler) lives as long as it does.
 */
export class InspectorSession {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  private closed = false;

  private constructor(private readonly conn: WsConnection) {}

  static async open(inspectUrl: string): Promise<InspectorSession> {
    const targets = (await (await fetch(`${inspectUrl}/json/list`, { signal: AbortSignal.timeout(5_000) })).json()) as { webSocketDebuggerUrl?: string }[];
    const url = targets[0]?.webSocketDebuggerUrl;
    if (!url) throw new Error(`no inspector target at ${inspectUrl}`);
    return new Promise<InspectorSession>((resolve, reject) => {
      let session: InspectorSession | undefined;
      const conn = new WsConnection(url, {}, {
        onOpen: () => {
          session = new InspectorSession(conn);
          resolve(session);
        },
        onMessage: (text) => session?.answer(text),
        onClose: () => {
          if (session) session.fail(new Error('the inspector closed the connection'));
          else reject(new Error('the inspector closed the connection'));
        },
      });
    });
  }

  /** One call; rejects after `timeoutMs` (a heap profile of a large heap takes a while). */
  call(method: string, params: Record<string, unknown> = {}, timeoutMs = 30_000): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the inspector session is closed'));
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the inspector did not answer ${method} within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.conn.send(JSON.stringify({ id, method, params }));
    });
  }

  close(): void {
    this.closed = true;
    this.conn.close();
    this.fail(new Error('the inspector session is closed'));
  }

  private answer(text: string): void {
    const msg = JSON.parse(text) as { id?: number; result?: unknown; error?: { message: string } };
    const waiting = msg.id === undefined ? undefined : this.pending.get(msg.id);
    if (!waiting) return;
    this.pending.delete(msg.id!);
    clearTimeout(waiting.timer);
    if (msg.error) waiting.reject(new Error(msg.error.message));
    else waiting.resolve(msg.result);
  }

  private fail(err: Error): void {
    this.closed = true;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(err);
      this.pending.delete(id);
    }
  }
}
