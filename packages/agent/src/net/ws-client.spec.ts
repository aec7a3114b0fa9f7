import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { WsConnection, WsUpgradeError } from './ws-client.js';

/** What the client saw, in order. */
interface Seen {
  opened: boolean;
  messages: string[];
  closes: { code: number; reason: string }[];
}

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A real WebSocket server on a free port; resolves its URL and each connection's socket and request headers. */
async function wsServer() {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  servers.push(wss);
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  const connections: { socket: ServerSocket; headers: http.IncomingHttpHeaders }[] = [];
  const waiting: ((c: { socket: ServerSocket; headers: http.IncomingHttpHeaders }) => void)[] = [];
  wss.on('connection', (socket, req) => {
    const c = { socket, headers: req.headers };
    const w = waiting.shift();
    if (w) w(c);
    else connections.push(c);
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/link`,
    next: () => new Promise<{ socket: ServerSocket; headers: http.IncomingHttpHeaders }>((resolve) => (connections.length ? resolve(connections.shift()!) : waiting.push(resolve))),
  };
}

function connect(url: string, headers: Record<string, string> = {}) {
  const seen: Seen = { opened: false, messages: [], closes: [] };
  let closed: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (closed = resolve));
  const conn = new WsConnection(url, headers, {
    onOpen: () => (seen.opened = true),
    onMessage: (text) => seen.messages.push(text),
    onClose: (code, reason) => {
      seen.closes.push({ code, reason });
      closed();
    },
  });
  return { conn, seen, done };
}

const until = async (check: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('WsConnection (the cloud link client) against a real WebSocket server', () => {
  it('opens with the given headers and carries text both ways, short and long, whole and fragmented', async () => {
    const server = await wsServer();
    const { conn, seen } = connect(server.url, { authorization: 'Bearer k1' });
    const { socket, headers } = await server.next();
    expect(headers.authorization).toBe('Bearer k1');
    await until(() => conn.isOpen);
    expect(seen.opened).toBe(true);

    const received: string[] = [];
    socket.on('message', (data, isBinary) => received.push(isBinary ? '(binary)' : data.toString()));
    // Every payload-length encoding of RFC 6455 §5.2 (7-bit, 16-bit, 64-bit).
    const sizes = [5, 125, 126, 300, 70_000];
    const payloads = sizes.map((n) => '{"type":"result"}'.padEnd(n, 'x'));
    for (const p of payloads) expect(conn.send(p)).toBe(true);
    await until(() => received.length === sizes.length);
    expect(received).toEqual(payloads);

    // Back-to-back messages, a fragmented one, and a binary one (ignored: the link is text).
    for (const p of payloads) socket.send(p);
    socket.send('hel', { fin: false });
    socket.send('lo', { fin: true });
    socket.send(Buffer.from([1, 2, 3]), { binary: true });
    socket.send('last');
    await until(() => seen.messages.includes('last'));
    expect(seen.messages).toEqual([...payloads, 'hello', 'last']);
    conn.close();
  });

  it('answers pings with pongs carrying the same payload', async () => {
    const server = await wsServer();
    const { conn } = connect(server.url);
    const { socket } = await server.next();
    await until(() => conn.isOpen);
    const pong = new Promise<string>((resolve) => socket.once('pong', (data) => resolve(data.toString())));
    socket.ping('p-1');
    expect(await pong).toBe('p-1');
    conn.close();
  });

  it('closes with a handshake: the server sees the code and reason, onClose runs once', async () => {
    const server = await wsServer();
    const { conn, seen, done } = connect(server.url);
    const { socket } = await server.next();
    await until(() => conn.isOpen);
    const serverSaw = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    conn.close(1001, 'going away');
    expect(await serverSaw).toEqual({ code: 1001, reason: 'going away' });
    await done;
    expect(seen.closes).toHaveLength(1);
    expect(conn.isOpen).toBe(false);
    expect(conn.send('late')).toBe(false);
    expect(conn.error).toBeNull();
  });

  it("reports the server's close code and reason", async () => {
    const server = await wsServer();
    const { conn, seen, done } = connect(server.url);
    const { socket } = await server.next();
    await until(() => conn.isOpen);
    socket.close(4001, 'replaced');
    await done;
    expect(seen.closes).toEqual([{ code: 4001, reason: 'replaced' }]);
    expect(conn.error).toBeNull();
  });

  it('terminate drops the link without a close frame', async () => {
    const server = await wsServer();
    const { conn, seen, done } = connect(server.url);
    const { socket } = await server.next();
    await until(() => conn.isOpen);
    const serverSaw = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    conn.terminate();
    expect(await serverSaw).toBe(1006);
    await done;
    expect(seen.closes).toHaveLength(1);
  });

  it('a refused upgrade ends with a WsUpgradeError carrying the status and body, and onClose once', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"error":"Unauthorized"}');
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { conn, seen, done } = connect(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/link`);
    await done;
    expect(seen.opened).toBe(false);
    expect(seen.closes).toHaveLength(1);
    expect(conn.error).toBeInstanceOf(WsUpgradeError);
    expect(conn.error).toMatchObject({ status: 401, body: '{"error":"Unauthorized"}' });
  });

  it('closing before the link opens ends it at once with an error', async () => {
    const server = await wsServer();
    const { conn, seen } = connect(server.url);
    conn.close();
    expect(seen.closes).toHaveLength(1);
    expect(conn.error?.message).toBe('closed before open');
    await new Promise((r) => setTimeout(r, 50));
    expect(seen.opened).toBe(false);
    expect(seen.closes).toHaveLength(1);
  });
});
