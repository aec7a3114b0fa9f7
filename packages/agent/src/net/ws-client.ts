import WebSocket from 'ws';

/**
 * The agent's WebSocket client for the cloud link, on `ws`: text messages, pings answered,
 * the close handshake. A thin shell that keeps the agent's callbacks (one `onClose` whether
 * the link failed to open or closed later) and its error types. No per-message deflate: the
 * link's messages are small, and a zlib context per link would make 10,000 simulated links
 * expensive.
 */

export interface WsHandlers {
  onOpen?(): void;
  onMessage(text: string): void;
  /** Called once, whether the link failed to open or closed later. */
  onClose(code: number, reason: string): void;
}

export class WsUpgradeError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`WebSocket upgrade refused: ${status} ${body.slice(0, 200)}`);
  }
}

/** Waiting for the server's answer to our close frame before the socket is destroyed. */
const CLOSE_TIMEOUT_MS = 2_000;

export class WsConnection {
  private readonly ws: WebSocket;
  private opened = false;
  private closed = false;
  /** We started closing: socket errors from then on are not the link's failure. */
  private closing = false;
  /** The error that ended the link (upgrade refused, socket error), if any. */
  error: Error | null = null;

  constructor(
    url: string,
    headers: Record<string, string>,
    private readonly handlers: WsHandlers,
    /** The local address to connect from (default: the system's choice). */
    { localAddress }: { localAddress?: string } = {},
  ) {
    this.ws = new WebSocket(url, { headers, handshakeTimeout: 30_000, perMessageDeflate: false, ...(localAddress !== undefined ? { localAddress } : {}) });
    this.ws.on('upgrade', (res) => {
      // Without pings from a vanished server, TCP keep-alive is what eventually notices.
      res.socket.setKeepAlive(true, 30_000);
    });
    this.ws.on('unexpected-response', (req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        this.error ??= new WsUpgradeError(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'));
        req.destroy();
        this.ws.terminate();
      });
      res.on('error', (err) => {
        this.error ??= err;
        this.ws.terminate();
      });
    });
    this.ws.on('open', () => {
      this.opened = true;
      if (!this.closed) this.handlers.onOpen?.();
    });
    this.ws.on('message', (data, isBinary) => {
      if (!isBinary && !this.closed) this.handlers.onMessage(text(data));
    });
    this.ws.on('error', (err) => {
      if (!this.closing) this.error ??= err;
    });
    this.ws.on('close', (code, reason) => this.finish(code, reason.toString('utf8')));
  }

  get isOpen(): boolean {
    return this.opened && !this.closed && this.ws.readyState === WebSocket.OPEN;
  }

  send(text: string): boolean {
    if (!this.isOpen) return false;
    this.ws.send(text);
    return true;
  }

  /** Starts the close handshake; the socket is destroyed if the server does not answer. */
  close(code = 1000, reason = ''): void {
    if (this.closed) return;
    this.closing = true;
    if (!this.opened) {
      this.error ??= new Error('closed before open');
      this.finish(1006, '');
      this.ws.terminate();
      return;
    }
    this.ws.close(code, reason);
    // ws would wait 30 s for the answer; a device going offline should not.
    const ws = this.ws;
    setTimeout(() => ws.terminate(), CLOSE_TIMEOUT_MS).unref();
  }

  /** Drops the connection without a close handshake (a device losing power). */
  terminate(): void {
    if (!this.opened && !this.closed) {
      this.error ??= new Error('terminated before open');
      this.finish(1006, '');
    }
    this.ws.terminate();
  }

  private finish(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.handlers.onClose(code, reason);
  }
}

function text(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
