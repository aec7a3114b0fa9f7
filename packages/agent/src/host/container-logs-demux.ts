/**
 * Reading the engine's log stream (`GET /containers/{id}/logs?follow&timestamps`), pure:
 *
 * - Without a TTY the stream is multiplexed: frames of an 8-byte header (stream type 1 =
 *   stdout, 2 = stderr; three zero bytes; a big-endian uint32 length) and the payload. Frames
 *   may arrive split over chunks or several in one chunk.
 * - With a TTY it is raw text (stdout and stderr mixed, `\r\n` line ends).
 * - With `timestamps` each line starts with the engine's RFC 3339 time and a space. Docker
 *   gives nanoseconds; Podman 4 whole seconds, so several lines share a timestamp.
 *
 * A cursor (the last line's timestamp, and how many lines had exactly that timestamp) lets
 * a reattach with `since` (whole seconds, inclusive) skip what was already shipped, so an
 * agent restart or a container restart sends no line twice.
 */

export interface EngineLine {
  message: string;
  /** Milliseconds since the epoch (the engine's time). */
  timestamp: number;
  /** The engine's exact time as a sortable key (nanoseconds since the epoch, decimal), or null when the line had none. */
  key: bigint | null;
  isStdErr: boolean;
}

/** Lines longer than this without a newline are cut into pieces (the server keeps 10,000 characters). */
export const MAX_PENDING_CHARS = 16 * 1024;

/** Splits multiplexed frames; keeps a partial header or payload for the next chunk. */
export class FrameDemuxer {
  private pending: Buffer = Buffer.alloc(0);

  feed(chunk: Buffer): { stream: 'stdout' | 'stderr'; data: Buffer }[] {
    const out: { stream: 'stdout' | 'stderr'; data: Buffer }[] = [];
    let buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    for (;;) {
      if (buf.length < 8) break;
      const type = buf[0]!;
      const size = buf.readUInt32BE(4);
      if (buf.length < 8 + size) break;
      // 0 is stdin (never in logs); anything unknown counts as stdout.
      out.push({ stream: type === 2 ? 'stderr' : 'stdout', data: buf.subarray(8, 8 + size) });
      buf = buf.subarray(8 + size);
    }
    this.pending = Buffer.from(buf);
    return out;
  }
}

/** Splits text into lines (`\n`, `\r\n`); a partial line waits for the rest. */
export class LineSplitter {
  private rest = '';
  private readonly decoder = new TextDecoder('utf-8');

  feed(data: Buffer): string[] {
    const text = this.rest + this.decoder.decode(data, { stream: true });
    const parts = text.split('\n');
    this.rest = parts.pop()!;
    const out = parts.map((p) => (p.endsWith('\r') ? p.slice(0, -1) : p));
    while (this.rest.length > MAX_PENDING_CHARS) {
      out.push(this.rest.slice(0, MAX_PENDING_CHARS));
      this.rest = this.rest.slice(MAX_PENDING_CHARS);
    }
    return out;
  }

  /** What is left when the stream ends (a last line without a newline). */
  end(): string[] {
    const rest = this.rest + this.decoder.decode();
    this.rest = '';
    return rest === '' ? [] : [rest.endsWith('\r') ? rest.slice(0, -1) : rest];
  }
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** `2026-11-26T13:36:20.123456789Z` → ms and an exact nanosecond key; null when not a timestamp. */
export function parseEngineTime(text: string): { ms: number; key: bigint } | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const seconds = Date.parse(`${m[1]}${m[3] === 'Z' ? 'Z' : m[3]}`);
  if (!Number.isFinite(seconds)) return null;
  const frac = (m[2] ?? '').padEnd(9, '0');
  const ns = BigInt(frac);
  return { ms: seconds + Math.floor(Number(ns) / 1e6), key: BigInt(seconds) * 1_000_000n + ns };
}

/** One engine line (`<time> <message>`) → its message and time; `now` when the engine gave none. */
export function parseEngineLine(line: string, isStdErr: boolean, now: () => number): EngineLine {
  const space = line.indexOf(' ');
  const time = space > 0 ? parseEngineTime(line.slice(0, space)) : null;
  if (time === null) return { message: line, timestamp: now(), key: null, isStdErr };
  return { message: line.slice(space + 1), timestamp: time.ms, key: time.key, isStdErr };
}

/** Where shipping of one container's log stopped: the last line's time and how many lines had exactly that time. */
export interface LogCursor {
  key: string;
  count: number;
}

/** The `since` (whole seconds, inclusive) to reattach from a cursor. */
export function sinceOf(cursor: LogCursor): number {
  return Number(BigInt(cursor.key) / 1_000_000_000n);
}

/**
 * Skips what a cursor says was shipped (lines before its time, and the first `count` lines
 * at its time: the engine replays a second's lines in the same order) and moves the cursor
 * along what passes.
 */
export class CursorFilter {
  private seenAtCursor = 0;

  constructor(private cursor: LogCursor | null) {}

  get position(): LogCursor | null {
    return this.cursor;
  }

  /** True when the line is new (ship it); the cursor then points at it. */
  accept(line: EngineLine): boolean {
    if (line.key === null) return true;
    const cur = this.cursor;
    if (cur !== null) {
      const at = BigInt(cur.key);
      if (line.key < at) return false;
      if (line.key === at && this.seenAtCursor < cur.count) {
        this.seenAtCursor++;
        return false;
      }
      if (line.key === at) {
        this.seenAtCursor++;
        this.cursor = { key: cur.key, count: cur.count + 1 };
        return true;
      }
    }
    this.cursor = { key: line.key.toString(), count: 1 };
    this.seenAtCursor = 1;
    return true;
  }
}
