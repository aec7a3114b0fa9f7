import { describe, expect, it } from 'vitest';
import { CursorFilter, FrameDemuxer, LineSplitter, MAX_PENDING_CHARS, parseEngineLine, parseEngineTime, sinceOf, type EngineLine } from './container-logs-demux.js';

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
  const at = (s: number, message: string): EngineLine => ({ message, timestamp: s * 1000, key: BigInt(s) * 1_000_000_000n, isStdErr: false });

  it('a reattach from the cursor skips exactly what was shipped, also within one second', () => {
    const first = new CursorFilter(null);
    const run1 = [at(10, 'a'), at(11, 'b'), at(11, 'c')];
    expect(run1.filter((l) => first.accept(l)).map((l) => l.message)).toEqual(['a', 'b', 'c']);
    const cursor = first.position!;
    expect(cursor).toEqual({ key: (11n * 1_000_000_000n).toString(), count: 2 });
    expect(sinceOf(cursor)).toBe(11);
    // The engine replays from second 11 (inclusive): b, c again, then what is new.
    const second = new CursorFilter(cursor);
    const replay = [at(11, 'b'), at(11, 'c'), at(11, 'd'), at(12, 'e')];
    expect(replay.filter((l) => second.accept(l)).map((l) => l.message)).toEqual(['d', 'e']);
    expect(second.position).toEqual({ key: (12n * 1_000_000_000n).toString(), count: 1 });
    // A cursor that moved within a second counts every line at it.
    const third = new CursorFilter({ key: (11n * 1_000_000_000n).toString(), count: 1 });
    expect([at(11, 'b'), at(11, 'c')].filter((l) => third.accept(l)).map((l) => l.message)).toEqual(['c']);
    expect(third.position).toEqual({ key: (11n * 1_000_000_000n).toString(), count: 2 });
  });
});
