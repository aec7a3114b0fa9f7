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
  const answer = (await inspectorCall(inspectUrl, 'Runtime.evaluate', {
    expression: 'JSON.stringify(process.memoryUsage())',
    returnByValue: true,
  })) as { result?: { value?: string } };
  const m = JSON.parse(answer.result?.value ?? '{}') as { heapUsed: number; external: number; arrayBuffers: number };
  const mb = (n: number) => n / 1024 / 1024;
  return { heapUsed: mb(m.heapUsed), external: mb(m.external), arrayBuffers: mb(m.arrayBuffers) };
}

/** One inspector protocol call; resolves with its result. */
async function inspectorCall(inspectUrl: string, method: string, params: Record<string, unknown>): Promise<unknown> {
  const targets = (await (await fetch(`${inspectUrl}/json/list`, { signal: AbortSignal.timeout(5_000) })).json()) as { webSocketDebuggerUrl?: string }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error(`no inspector target at ${inspectUrl}`);
  return new Promise<unknown>((resolve, reject) => {
    const timer = setTimeout(() => {
      conn.close();
      reject(new Error(`the inspector did not answer ${method} within 30 s`));
    }, 30_000);
    const conn = new WsConnection(url, {}, {
      onOpen: () => conn.send(JSON.stringify({ id: 1, method, params })),
      onMessage: (text) => {
        const msg = JSON.parse(text) as { id?: number; result?: unknown; error?: { message: string } };
        if (msg.id !== 1) return;
        clearTimeout(timer);
        conn.close();
        if (msg.error) reject(new Error(`${method}: ${msg.error.message}`));
        else resolve(msg.result);
      },
      onClose: () => {
        clearTimeout(timer);
        reject(new Error('the inspector closed the connection'));
      },
    });
  });
}
