import type { TerminalServerFrame } from '@flotilla/model';
import { describe, expect, it } from 'vitest';
import { parseServerFrame, TerminalConnection, terminalSocketUrl, type TerminalSocket } from './terminal-connection';

class FakeSocket implements TerminalSocket {
  readyState = 0;
  sent: unknown[] = [];
  closedWith: number | undefined;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code?: number) {
    this.closedWith = code;
    this.readyState = 3;
  }
  // The server's side.
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  frame(f: TerminalServerFrame) {
    this.onmessage?.({ data: JSON.stringify(f) });
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({});
  }
}

function setup() {
  const sockets: FakeSocket[] = [];
  const timers: { fn: () => void; ms: number }[] = [];
  const conn = new TerminalConnection({ uuid: 'abc', target: 'service:web', cols: 80, rows: 24 }, 'ws://h/terminal/v1', {
    openSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    getToken: async () => `token-${sockets.length}`,
    setTimer: (fn, ms) => timers.push({ fn, ms }),
    clearTimer: () => undefined,
  });
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return { conn, sockets, timers, flush };
}

const readyFrames: TerminalServerFrame[] = [{ event: 'authenticated' }, { event: 'ssh connecting' }, { event: 'ssh spawning' }, { event: 'ssh connect' }, { event: 'ready' }];

describe('terminalSocketUrl', () => {
  it('is ws or wss on the page host at TERMINAL_PATH', () => {
    expect(terminalSocketUrl({ protocol: 'http:', host: '127.0.0.1:8080' })).toBe('ws://127.0.0.1:8080/terminal/v1');
    expect(terminalSocketUrl({ protocol: 'https:', host: 'dash.example.com' })).toBe('wss://dash.example.com/terminal/v1');
  });
});

describe('parseServerFrame', () => {
  it('accepts JSON frames with an event only', () => {
    expect(parseServerFrame('{"event":"ready"}')).toEqual({ event: 'ready' });
    expect(parseServerFrame('not json')).toBeUndefined();
    expect(parseServerFrame('[1]')).toBeUndefined();
    expect(parseServerFrame(new ArrayBuffer(2))).toBeUndefined();
  });
});

describe('TerminalConnection', () => {
  it('authenticates first with token, uuid, target and size, relays keystrokes and resizes once ready', async () => {
    const { conn, sockets, flush } = setup();
    conn.start();
    await flush();
    const s = sockets[0]!;
    s.open();
    expect(s.sent).toEqual([{ event: 'authentication', token: 'token-0', uuid: 'abc', target: 'service:web', cols: 80, rows: 24 }]);
    conn.send('ignored before ready');
    for (const f of readyFrames) s.frame(f);
    expect(conn.state.status).toBe('connected');
    conn.send('echo hi\r');
    conn.resize(100, 30);
    conn.resize(0, 0);
    conn.resize(100_000, 100_000);
    expect(s.sent.slice(1)).toEqual([
      { event: 'resize', cols: 80, rows: 24 },
      { event: 'data', data: 'echo hi\r' },
      { event: 'resize', cols: 100, rows: 30 },
    ]);
  });

  it('keeps output until a view attaches, then streams into it, and tells data listeners', async () => {
    const { conn, sockets, flush } = setup();
    let pings = 0;
    conn.onData(() => (pings += 1));
    conn.start();
    await flush();
    sockets[0]!.open();
    for (const f of readyFrames) sockets[0]!.frame(f);
    sockets[0]!.frame({ event: 'data', data: 'a' });
    const got: string[] = [];
    conn.attach((t) => got.push(t));
    sockets[0]!.frame({ event: 'data', data: 'b' });
    expect(got).toEqual(['a', 'b']);
    expect(pings).toBe(2);
  });

  it('reconnects 5 times 2000 ms apart with the current size, then fails', async () => {
    const { conn, sockets, timers, flush } = setup();
    const notices: string[] = [];
    conn.onState((s) => notices.push(s.notice.kind === 'reconnecting' ? `reconnecting ${s.notice.attempt}` : s.notice.kind));
    conn.start();
    await flush();
    sockets[0]!.open();
    for (const f of readyFrames) sockets[0]!.frame(f);
    conn.resize(120, 40);
    sockets[0]!.frame({ event: 'ssh disconnect', reason: 'link closed' });
    sockets[0]!.drop();
    for (let i = 1; i <= 5; i += 1) {
      expect(timers).toHaveLength(i);
      expect(timers[i - 1]!.ms).toBe(2000);
      timers[i - 1]!.fn();
      await flush();
      const s = sockets[i]!;
      s.open();
      expect(s.sent[0]).toMatchObject({ event: 'authentication', cols: 120, rows: 40 });
      s.frame({ event: 'authenticated' });
      s.frame({ event: 'ssh disconnect', reason: 'device is offline' });
      s.drop();
    }
    expect(timers).toHaveLength(5);
    expect(conn.state).toMatchObject({ status: 'failed', notice: { kind: 'reconnect_failed' } });
    expect(notices).toContain('ssh_disconnected');
    expect([...new Set(notices.filter((n) => n.startsWith('reconnecting')))]).toEqual([1, 2, 3, 4, 5].map((i) => `reconnecting ${i}`));
    expect(notices.at(-1)).toBe('reconnect_failed');
  });

  it('does not reconnect after unauthorized or after close', async () => {
    const { conn, sockets, timers, flush } = setup();
    conn.start();
    await flush();
    sockets[0]!.open();
    sockets[0]!.frame({ event: 'unauthorized', message: 'nope' });
    sockets[0]!.drop();
    expect(timers).toHaveLength(0);
    expect(conn.state.notice).toEqual({ kind: 'unauthorized', message: 'nope' });

    const other = setup();
    other.conn.start();
    await other.flush();
    other.sockets[0]!.open();
    other.conn.close();
    expect(other.sockets[0]!.closedWith).toBe(1000);
    expect(other.timers).toHaveLength(0);
  });
});
