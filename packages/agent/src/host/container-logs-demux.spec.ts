import { describe, expect, it } from 'vitest';
import { CURSOR_LINES, CursorFilter, FrameDemuxer, LineSplitter, MAX_PENDING_CHARS, lineIdentity, parseEngineLine, parseEngineTime, readCursor, sinceOf, type EngineLine } from './container-logs-demux.js';

const frame = (type: number, text: string) => {
  const payload = Buffer.from(text);
  const header = Buffer.alloc(8);
  header[0] = type;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
};

describe('FrameDemuxer', () => {
  it('splits stdout and stderr frames, several per chunk and split across chunks', () => {
    const d = new FrameDemuxer();
    const all = Buffer.concat([frame(1, 'out one\n'), frame(2, 'err one\n'), frame(1, 'out two\n')]);
    const got = [...d.feed(all.subarray(0, 3)), ...d.feed(all.subarray(3, 20)), ...d.feed(all.subarray(20))];
    expect(got.map((f) => [f.stream, f.data.toString()])).toEqual([
      ['stdout', 'out one\n'],
      ['stderr', 'err one\n'],
      ['stdout', 'out two\n'],
    ]);
  });
});

describe('LineSplitter', () => {
  it('joins partial lines, drops \\r of TTY line ends, keeps multi-byte characters whole', () => {
    const s = new LineSplitter();
    const euro = Buffer.from('€');
    expect(s.feed(Buffer.from('a\r\nb'))).toEqual(['a']);
    expect(s.feed(Buffer.concat([Buffer.from('c '), euro.subarray(0, 1)]))).toEqual([]);
    expect(s.feed(Buffer.concat([euro.subarray(1), Buffer.from('\n')]))).toEqual(['bc €']);
    expect(s.feed(Buffer.from('tail'))).toEqual([]);
    expect(s.end()).toEqual(['tail']);
  });

  it('cuts a line that never ends', () => {
    const s = new LineSplitter();
    const out = s.feed(Buffer.from('x'.repeat(MAX_PENDING_CHARS * 2 + 5)));
    expect(out.map((l) => l.length)).toEqual([MAX_PENDING_CHARS, MAX_PENDING_CHARS]);
    expect(s.end()).toEqual(['xxxxx']);
  });
});

describe('engine timestamps', () => {
  it('reads Docker nanoseconds and Podman whole seconds', () => {
    expect(parseEngineTime('2026-11-26T13:36:20Z')).toEqual({ ms: Date.UTC(2026, 10, 26, 13, 36, 20), key: BigInt(Date.UTC(2026, 10, 26, 13, 36, 20)) * 1_000_000n });
    const ns = parseEngineTime('2026-11-26T13:36:20.123456789Z')!;
    expect(ns.ms).toBe(Date.UTC(2026, 10, 26, 13, 36, 20, 123));
    expect(ns.key % 1_000_000_000n).toBe(123_456_789n);
    expect(parseEngineTime('2026-11-26T15:36:20+02:00')!.ms).toBe(Date.UTC(2026, 10, 26, 13, 36, 20));
    expect(parseEngineTime('hello')).toBeNull();
  });

  it('splits a line into time and message; a line without a time gets now', () => {
    expect(parseEngineLine('2026-11-26T13:36:20Z hello world', true, () => 5)).toMatchObject({ message: 'hello world', timestamp: Date.UTC(2026, 10, 26, 13, 36, 20), isStdErr: true });
    expect(parseEngineLine('no time here', false, () => 5)).toEqual({ message: 'no time here', timestamp: 5, key: null, isStdErr: false });
  });
});

describe('CursorFilter', () => {
  const at = (s: number, message: string, isStdErr = false): EngineLine => ({ message, timestamp: s * 1000, key: BigInt(s) * 1_000_000_000n, isStdErr });
  const pass = (f: CursorFilter, lines: EngineLine[]) => lines.filter((l) => f.accept(l)).map((l) => `${l.isStdErr ? 'E' : 'O'} ${l.message}`);

  it('a reattach from the cursor skips exactly what was shipped, also within one second', () => {
    const first = new CursorFilter(null);
    expect(pass(first, [at(10, 'a'), at(11, 'b'), at(11, 'c')])).toEqual(['O a', 'O b', 'O c']);
    const cursor = structuredClone(first.position!);
    expect(cursor).toMatchObject({ key: (11n * 1_000_000_000n).toString(), count: 2 });
    expect(cursor.lines).toHaveLength(2);
    expect(sinceOf(cursor)).toBe(11);
    // The engine replays from second 11 (inclusive): b, c again, then what is new.
    const second = new CursorFilter(cursor);
    expect(pass(second, [at(11, 'b'), at(11, 'c'), at(11, 'd'), at(12, 'e')])).toEqual(['O d', 'O e']);
    expect(second.position).toMatchObject({ key: (12n * 1_000_000_000n).toString(), count: 1 });
  });

  it('a follow that skipped a line before a restart: the replay ships that line and nothing twice', () => {
    // Podman 4.3's follow spanning a container restart gave out 1, out 2, out 4 of the new run and ended;
    // the engine's replay of that second has all five.
    const live = new CursorFilter(null);
    expect(pass(live, [at(86, 'tick 4'), at(87, 'out 1'), at(87, 'out 2'), at(87, 'out 4')])).toEqual(['O tick 4', 'O out 1', 'O out 2', 'O out 4']);
    const replay = new CursorFilter(structuredClone(live.position!));
    const engine = [at(86, 'tick 4'), at(87, 'out 1'), at(87, 'out 2'), at(87, 'out 3'), at(87, 'out 4'), at(87, 'out 5'), at(87, 'err 1', true), at(88, 'tick 2')];
    expect(pass(replay, engine)).toEqual(['O out 3', 'O out 5', 'E err 1', 'O tick 2']);
  });

  it('tells stdout from stderr and counts identical lines of one second', () => {
    const live = new CursorFilter(null);
    expect(pass(live, [at(5, 'same'), at(5, 'same', true)])).toEqual(['O same', 'E same']);
    // Three identical stdout lines in the second, one shipped: the replay ships the other two.
    const replay = new CursorFilter(structuredClone(live.position!));
    expect(pass(replay, [at(5, 'same'), at(5, 'same', true), at(5, 'same'), at(5, 'same')])).toEqual(['O same', 'O same']);
  });

  it('an older agent’s cursor (a count, no lines) skips that many lines of its second', () => {
    const f = new CursorFilter({ key: (11n * 1_000_000_000n).toString(), count: 1 });
    expect(pass(f, [at(10, 'a'), at(11, 'b'), at(11, 'c')])).toEqual(['O c']);
    expect(f.position).toMatchObject({ count: 2 });
  });

  it('lists at most CURSOR_LINES lines of a second and counts the rest', () => {
    const live = new CursorFilter(null);
    const burst = Array.from({ length: CURSOR_LINES + 5 }, (_, i) => at(7, `line ${i}`));
    expect(pass(live, burst)).toHaveLength(CURSOR_LINES + 5);
    const cursor = structuredClone(live.position!);
    expect(cursor.count).toBe(CURSOR_LINES + 5);
    expect(cursor.lines).toHaveLength(CURSOR_LINES);
    expect(pass(new CursorFilter(cursor), [...burst, at(7, 'new')])).toEqual(['O new']);
  });

  it('reads a cursor back from the file only when it is one', () => {
    expect(readCursor({ key: '11000000000', count: 2, lines: ['0Oabc', '0Odef'] })).toEqual({ key: '11000000000', count: 2, lines: ['0Oabc', '0Odef'] });
    expect(readCursor({ key: '11000000000', count: 3 })).toEqual({ key: '11000000000', count: 3 });
    // Lines that are not a list of short strings are dropped; the count is kept.
    expect(readCursor({ key: '11000000000', count: 1, lines: [1, 2] })).toEqual({ key: '11000000000', count: 1 });
    expect(readCursor({ key: '11000000000', count: 1, lines: ['x'.repeat(41)] })).toEqual({ key: '11000000000', count: 1 });
    for (const bad of [null, 'x', { key: 11, count: 1 }, { key: '1e9', count: 1 }, { key: '1', count: -1 }, { key: '1', count: 1.5 }]) expect(readCursor(bad)).toBeNull();
    expect(lineIdentity({ ...at(3, 'x'), key: 3_000_000_123n })).toMatch(/^123O[A-Za-z0-9_-]{12}$/);
  });
});
