import { describe, expect, it } from 'vitest';
import { TERMINAL_WINDOW_CHARS, TerminalRefused, TerminalSessions, parseTerminalFrame, type TerminalHost, type Tty, type TtyEvents, type TtySize } from './terminal.js';

class FakeTty implements Tty {
  written: string[] = [];
  sizes: TtySize[] = [];
  paused = false;
  closed = false;
  constructor(readonly events: TtyEvents) {}
  write(data: string) {
    this.written.push(data);
  }
  resize(size: TtySize) {
    this.sizes.push(size);
  }
  pause() {
    this.paused = true;
  }
  resume() {
    this.paused = false;
  }
  close() {
    this.closed = true;
  }
}

function setup(refuse?: string) {
  const sent: Record<string, unknown>[] = [];
  const ttys: FakeTty[] = [];
  const host: TerminalHost = {
    open: async (_service, _size, events) => {
      if (refuse) throw new TerminalRefused(refuse);
      const tty = new FakeTty(events);
      ttys.push(tty);
      return tty;
    },
  };
  const sessions = new TerminalSessions(host, (f) => sent.push(JSON.parse(f) as Record<string, unknown>), () => undefined);
  return { sent, ttys, sessions };
}
const SESSION = '00000000-0000-4000-8000-000000000001';
const frame = (f: Record<string, unknown>) => JSON.stringify({ session: SESSION, ...f });
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('TerminalSessions', () => {
  it('opens, relays input and resize, and reports spawning then connect', async () => {
    const { sent, ttys, sessions } = setup();
    expect(sessions.handle(frame({ type: 'terminal-open', service: 'main', cols: 80, rows: 24 }))).toBe(true);
    sessions.handle(frame({ type: 'terminal-input', data: 'early' })); // before the TTY is open: kept
    await tick();
    expect(sent.map((f) => f.state)).toEqual(['spawning', 'connect']);
    sessions.handle(frame({ type: 'terminal-input', data: 'ls\r' }));
    sessions.handle(frame({ type: 'terminal-resize', cols: 100, rows: 30 }));
    sessions.handle(frame({ type: 'terminal-resize', cols: 0, rows: 0 })); // invalid: ignored
    expect(ttys[0]!.written).toEqual(['early', 'ls\r']);
    expect(ttys[0]!.sizes).toEqual([{ cols: 100, rows: 30 }]);
  });

  it('decodes UTF-8 split across reads without breaking a character', async () => {
    const { sent, ttys, sessions } = setup();
    sessions.handle(frame({ type: 'terminal-open', service: null, cols: 80, rows: 24 }));
    await tick();
    const euro = Buffer.from('€', 'utf8');
    ttys[0]!.events.onData(euro.subarray(0, 1));
    ttys[0]!.events.onData(euro.subarray(1));
    expect(sent.filter((f) => f.type === 'terminal-output').map((f) => f.data)).toEqual(['€']);
  });

  it('pauses the TTY once a window of output is unacknowledged and resumes on ack', async () => {
    const { ttys, sessions } = setup();
    sessions.handle(frame({ type: 'terminal-open', service: 'main', cols: 80, rows: 24 }));
    await tick();
    const tty = ttys[0]!;
    tty.events.onData('y\n'.repeat(TERMINAL_WINDOW_CHARS / 2));
    expect(tty.paused).toBe(true);
    sessions.handle(frame({ type: 'terminal-ack', chars: 1024 }));
    expect(tty.paused).toBe(false);
  });

  it('closes the TTY on terminal-close and ignores frames after it', async () => {
    const { sent, ttys, sessions } = setup();
    sessions.handle(frame({ type: 'terminal-open', service: 'main', cols: 80, rows: 24 }));
    await tick();
    sessions.handle(frame({ type: 'terminal-close' }));
    expect(ttys[0]!.closed).toBe(true);
    sessions.handle(frame({ type: 'terminal-input', data: 'late' }));
    expect(ttys[0]!.written).toEqual([]);
    expect(sessions.size).toBe(0);
    expect(sent.some((f) => f.type === 'terminal-exit')).toBe(false);
  });

  it('answers a refusal with terminal-exit and its reason', async () => {
    const { sent, sessions } = setup('the host shell is disabled');
    sessions.handle(frame({ type: 'terminal-open', service: null, cols: 80, rows: 24 }));
    await tick();
    expect(sent.at(-1)).toEqual({ type: 'terminal-exit', session: SESSION, reason: 'the host shell is disabled' });
  });

  it('reports the TTY exit once and closes every session when the link drops', async () => {
    const { sent, ttys, sessions } = setup();
    sessions.handle(frame({ type: 'terminal-open', service: 'main', cols: 80, rows: 24 }));
    await tick();
    ttys[0]!.events.onExit('the shell exited');
    ttys[0]!.events.onExit('again');
    expect(sent.filter((f) => f.type === 'terminal-exit').map((f) => f.reason)).toEqual(['the shell exited']);
    sessions.handle(JSON.stringify({ type: 'terminal-open', session: 'other', service: 'main', cols: 80, rows: 24 }));
    await tick();
    sessions.closeAll();
    expect(ttys[1]!.closed).toBe(true);
  });

  it('parses only well-formed terminal frames', () => {
    expect(parseTerminalFrame('{"type":"action","id":"1"}')).toBeNull();
    expect(parseTerminalFrame(frame({ type: 'terminal-open', service: 5, cols: 80, rows: 24 }))).toBeNull();
    expect(parseTerminalFrame(frame({ type: 'terminal-resize', cols: 100000, rows: 100000 }))).toBeNull();
    expect(parseTerminalFrame('{"type":"terminal-input"')).toBeNull();
    expect(parseTerminalFrame(frame({ type: 'terminal-input', data: 'x' }))).toMatchObject({ data: 'x' });
  });
});
