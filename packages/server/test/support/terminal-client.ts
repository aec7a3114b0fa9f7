import { WebSocket } from 'ws';
import { TERMINAL_PATH, type TerminalServerFrame, type TerminalTarget } from '@flotilla/model';

/**
 * The browser's end of the web terminal (protocol: @flotilla/model live-operations.ts), as
 * the dashboard's xterm panel speaks it: frames recorded in order, output accumulated.
 */
export class TerminalClient {
  readonly frames: TerminalServerFrame[] = [];
  output = '';
  closeCode: number | null = null;
  private waiters: (() => void)[] = [];
  private readonly closedPromise: Promise<number>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as TerminalServerFrame;
      this.frames.push(frame);
      if (frame.event === 'data') this.output += frame.data;
      this.wake();
    });
    this.closedPromise = new Promise((resolve) =>
      ws.once('close', (code) => {
        this.closeCode = code;
        this.wake();
        resolve(code);
      }),
    );
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Connects (no frame sent yet); rejects with the HTTP status when the upgrade is refused. */
  static connect(baseUrl: string, headers: Record<string, string> = {}): Promise<TerminalClient> {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${TERMINAL_PATH}`, { headers });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new TerminalClient(ws)));
      ws.once('unexpected-response', (req, res) => {
        req.destroy();
        reject(new TerminalRefused(res.statusCode ?? 0));
      });
      ws.once('error', reject);
    });
  }

  /** Connects and authenticates; resolves once `ready`, else rejects with the frames seen. */
  static async open(baseUrl: string, token: string, uuid: string, target: TerminalTarget, size?: { cols: number; rows: number }): Promise<TerminalClient> {
    const client = await TerminalClient.connect(baseUrl);
    client.send({ event: 'authentication', token, uuid, target, ...(size ?? {}) });
    await client.until((c) => c.has('ready') || c.has('ssh disconnect') || c.has('unauthorized') || c.closeCode !== null, 30_000);
    if (!client.has('ready')) throw new Error(`terminal did not open: ${JSON.stringify(client.frames)}`);
    return client;
  }

  send(frame: object): void {
    this.ws.send(JSON.stringify(frame));
  }

  sendRaw(text: string | Buffer): void {
    this.ws.send(text);
  }

  type(text: string): void {
    this.send({ event: 'data', data: text });
  }

  has(event: TerminalServerFrame['event']): boolean {
    return this.frames.some((f) => f.event === event);
  }

  frame<E extends TerminalServerFrame['event']>(event: E): Extract<TerminalServerFrame, { event: E }> | undefined {
    return this.frames.find((f) => f.event === event) as Extract<TerminalServerFrame, { event: E }> | undefined;
  }

  /** Waits until `done` holds (checked on every frame and on close). */
  until(done: (c: TerminalClient) => boolean, timeoutMs = 20_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`terminal: condition not reached; frames ${JSON.stringify(this.frames).slice(-2000)}`)), timeoutMs);
      const check = () => {
        if (done(this)) {
          clearTimeout(timer);
          resolve();
        } else this.waiters.push(check);
      };
      check();
    });
  }

  /** Waits for output matching `re` after `from` (an offset in `output`). */
  async waitOutput(re: RegExp, from = 0, timeoutMs = 20_000): Promise<RegExpMatchArray> {
    await this.until((c) => re.test(c.output.slice(from)), timeoutMs);
    return this.output.slice(from).match(re)!;
  }

  closed(): Promise<number> {
    return this.closedPromise;
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    this.ws.close();
    await this.closedPromise;
  }
}

export class TerminalRefused extends Error {
  constructor(readonly status: number) {
    super(`terminal upgrade refused with ${status}`);
  }
}
