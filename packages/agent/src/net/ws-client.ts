import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';

/**
 * A minimal RFC 6455 WebSocket client: text frames, ping → pong, close handshake. The
 * cloud link needs nothing more, Node 20 has no stable built-in client that can send an
 * Authorization header, and keeping it this small keeps 10,000 simulated links cheap.
 */

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const OP_CONT = 0x0;
const OP_TEXT = 0x1;
const OP_BINARY = 0x2;
const OP_CLOSE = 0x8;
const OP_PING = 0x9;
const OP_PONG = 0xa;

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

export class WsConnection {
  private socket: Duplex | null = null;
  private buffer: Buffer = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private fragmentOp = 0;
  private closed = false;
  /** We sent a close frame: the server's echo needs no answer. */
  private closing = false;
  private closeCode = 1006;
  private closeReason = '';
  /** The error that ended the link (upgrade refused, socket error), if any. */
  error: Error | null = null;

  constructor(
    url: string,
    headers: Record<string, string>,
    private readonly handlers: WsHandlers,
  ) {
    const target = new URL(url.replace(/^ws/, 'http'));
    const key = randomBytes(16).toString('base64');
    const transport = target.protocol === 'https:' ? https : http;
    const req = transport.request(target, {
      method: 'GET',
      agent: false,
      headers: {
        ...headers,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': key,
      },
    });
    req.setTimeout(30_000, () => req.destroy(new Error('WebSocket upgrade timed out')));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => this.finish(new WsUpgradeError(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'))));
      res.on('error', (err) => this.finish(err));
    });
    req.on('upgrade', (res, socket, head) => {
      const expected = createHash('sha1').update(key + GUID).digest('base64');
      if (res.headers['sec-websocket-accept'] !== expected) {
        socket.destroy();
        this.finish(new Error('WebSocket upgrade with a wrong Sec-WebSocket-Accept'));
        return;
      }
      req.setTimeout(0);
      this.socket = socket;
      const s = socket as Duplex & { setNoDelay?(b: boolean): void; setKeepAlive?(b: boolean, ms: number): void; setTimeout?(ms: number): void };
      s.setTimeout?.(0);
      s.setNoDelay?.(true);
      // Without pings from a vanished server, TCP keep-alive is what eventually notices.
      s.setKeepAlive?.(true, 30_000);
      socket.on('data', (chunk: Buffer) => this.onData(chunk));
      socket.on('error', (err) => {
        if (!this.closing) this.error = err;
      });
      socket.on('close', () => this.finish(null));
      this.handlers.onOpen?.();
      if (head.length > 0) this.onData(head);
    });
    req.on('error', (err) => this.finish(err));
    req.end();
  }

  get isOpen(): boolean {
    return this.socket !== null && !this.closed;
  }

  send(text: string): boolean {
    if (!this.isOpen) return false;
    this.socket!.write(encodeFrame(OP_TEXT, Buffer.from(text, 'utf8')));
    return true;
  }

  /** Starts the close handshake; the socket is destroyed if the server does not answer. */
  close(code = 1000, reason = ''): void {
    if (this.closed) return;
    if (!this.socket) {
      this.finish(new Error('closed before open'));
      return;
    }
    const payload = Buffer.alloc(2 + Buffer.byteLength(reason));
    payload.writeUInt16BE(code, 0);
    payload.write(reason, 2);
    this.closeCode = code;
    this.closeReason = reason;
    this.closing = true;
    this.socket.write(encodeFrame(OP_CLOSE, payload));
    this.socket.end();
    const sock = this.socket;
    setTimeout(() => sock.destroy(), 2_000).unref();
  }

  /** Drops the connection without a close handshake (a device losing power). */
  terminate(): void {
    this.socket?.destroy();
    if (!this.socket) this.finish(new Error('terminated before open'));
  }

  private finish(err: Error | null): void {
    if (this.closed) return;
    this.closed = true;
    if (err) this.error = err;
    this.socket?.destroy();
    this.handlers.onClose(this.closeCode, this.closeReason);
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const frame = decodeFrame(this.buffer);
      if (frame === null) return;
      this.buffer = this.buffer.subarray(frame.length);
      this.onFrame(frame.fin, frame.opcode, frame.payload);
      if (this.closed) return;
    }
  }

  private onFrame(fin: boolean, opcode: number, payload: Buffer): void {
    switch (opcode) {
      case OP_PING:
        this.socket?.write(encodeFrame(OP_PONG, payload));
        return;
      case OP_PONG:
        return;
      case OP_CLOSE: {
        if (payload.length >= 2) {
          this.closeCode = payload.readUInt16BE(0);
          this.closeReason = payload.subarray(2).toString('utf8');
        } else {
          this.closeCode = 1005;
        }
        // Echo the close frame (unless it is the echo of ours), then let the server close TCP.
        if (!this.closing) {
          this.closing = true;
          this.socket?.write(encodeFrame(OP_CLOSE, payload.subarray(0, 2)));
          this.socket?.end();
        }
        return;
      }
      case OP_TEXT:
      case OP_BINARY:
      case OP_CONT: {
        if (opcode !== OP_CONT) {
          this.fragments = [];
          this.fragmentOp = opcode;
        }
        this.fragments.push(payload);
        if (!fin) return;
        const whole = this.fragments.length === 1 ? this.fragments[0]! : Buffer.concat(this.fragments);
        this.fragments = [];
        if (this.fragmentOp === OP_TEXT) this.handlers.onMessage(whole.toString('utf8'));
        return;
      }
      default:
        this.terminate();
    }
  }
}

/** A client frame: always masked (RFC 6455 §5.3), never fragmented. */
export function encodeFrame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const headerLen = len < 126 ? 2 : len < 65536 ? 4 : 10;
  const frame = Buffer.alloc(headerLen + 4 + len);
  frame[0] = 0x80 | opcode;
  if (len < 126) {
    frame[1] = 0x80 | len;
  } else if (len < 65536) {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(len, 2);
  } else {
    frame[1] = 0x80 | 127;
    frame.writeBigUInt64BE(BigInt(len), 2);
  }
  const mask = randomBytes(4);
  mask.copy(frame, headerLen);
  for (let i = 0; i < len; i++) frame[headerLen + 4 + i] = payload[i]! ^ mask[i & 3]!;
  return frame;
}

/** Decodes one frame from the start of `buf`, or null when it is not complete yet. */
export function decodeFrame(buf: Buffer): { fin: boolean; opcode: number; payload: Buffer; length: number } | null {
  if (buf.length < 2) return null;
  const fin = (buf[0]! & 0x80) !== 0;
  const opcode = buf[0]! & 0x0f;
  const masked = (buf[1]! & 0x80) !== 0;
  let len = buf[1]! & 0x7f;
  let offset = 2;
  if (len === 126) {
    if (buf.length < 4) return null;
    len = buf.readUInt16BE(2);
    offset = 4;
  } else if (len === 127) {
    if (buf.length < 10) return null;
    len = Number(buf.readBigUInt64BE(2));
    offset = 10;
  }
  const maskOffset = offset;
  if (masked) offset += 4;
  if (buf.length < offset + len) return null;
  let payload = buf.subarray(offset, offset + len);
  if (masked) {
    const copy = Buffer.alloc(len);
    for (let i = 0; i < len; i++) copy[i] = payload[i]! ^ buf[maskOffset + (i & 3)]!;
    payload = copy;
  }
  return { fin, opcode, payload, length: offset + len };
}
