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
 * A cursor (the last line's time and the lines shipped within its whole second) lets a
 * reattach with `since` (whole seconds, inclusive) skip what was already shipped, so an
 * agent restart or a container restart sends no line twice and loses none.
 */

import { createHash } from 'node:crypto';

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

/**
 * Where shipping of one container's log stopped: the last line's time, how many lines were
 * shipped within that line's whole second, and which ones (`lines`, at most
 * `CURSOR_LINES`; a cursor written by an older agent has only the count).
 */
export interface LogCursor {
  key: string;
  count: number;
  lines?: string[];
}

/** Lines of the cursor's second listed by identity; more than this are only counted. */
export const CURSOR_LINES = 1_000;

const NS_PER_SECOND = 1_000_000_000n;

/** The `since` (whole seconds, inclusive) to reattach from a cursor. */
export function sinceOf(cursor: LogCursor): number {
  return Number(BigInt(cursor.key) / NS_PER_SECOND);
}

/** A line's identity within its whole second: its time within the second, its stream and a hash of its text. */
export function lineIdentity(line: EngineLine & { key: bigint }): string {
  const within = line.key % NS_PER_SECOND;
  return `${within}${line.isStdErr ? 'E' : 'O'}${createHash('sha1').update(line.message).digest('base64url').slice(0, 12)}`;
}

/** A cursor read back from the cursor file, or null when it is not one. */
export function readCursor(value: unknown): LogCursor | null {
  const c = value as Partial<LogCursor> | null;
  if (!c || typeof c !== 'object' || typeof c.key !== 'string' || !/^[0-9]{1,30}$/.test(c.key) || !Number.isInteger(c.count) || c.count! < 0) return null;
  const lines = Array.isArray(c.lines) && c.lines.length <= CURSOR_LINES && c.lines.every((l) => typeof l === 'string' && l.length <= 40) ? c.lines : undefined;
  return { key: c.key, count: Math.max(c.count!, lines?.length ?? 0), ...(lines ? { lines } : {}) };
}

/**
 * Skips what a cursor says was shipped and moves the cursor along what passes. A reattach
 * replays the cursor's whole second (`since` is inclusive and Podman 4 stamps whole
 * seconds): lines before that second were shipped; within it, the lines the cursor lists
 * were, and any other is new. Matching by identity rather than by position matters because
 * a follow that spans a container restart can skip a line of the new run that a replay
 * then gives (seen with Podman 4.3). Beyond `CURSOR_LINES` in one second (or with an older
 * agent's cursor) the unlisted shipped lines are skipped by count, the first ones met.
 */
export class CursorFilter {
  private cursor: { key: string; count: number; lines: string[] } | null;
  /** The cursor's whole second (ns), where a replay begins. */
  private second: bigint | null;
  /** Shipped lines of that second not met again in this stream yet (identity → how many). */
  private readonly shipped = new Map<string, number>();
  /** Shipped lines of that second that the cursor counts but does not list. */
  private unlisted: number;

  constructor(cursor: LogCursor | null) {
    this.cursor = cursor ? { key: cursor.key, count: cursor.count, lines: [...(cursor.lines ?? [])] } : null;
    this.second = cursor ? (BigInt(cursor.key) / NS_PER_SECOND) * NS_PER_SECOND : null;
    for (const id of cursor?.lines ?? []) this.shipped.set(id, (this.shipped.get(id) ?? 0) + 1);
    this.unlisted = cursor ? Math.max(0, cursor.count - (cursor.lines?.length ?? 0)) : 0;
  }

  /** The cursor after the lines accepted so far (the filter's own object: it moves on as lines pass). */
  get position(): LogCursor | null {
    return this.cursor;
  }

  /** True when the line is new (ship it); the cursor then includes it. */
  accept(line: EngineLine): boolean {
    if (line.key === null) return true;
    const key = line.key;
    const second = (key / NS_PER_SECOND) * NS_PER_SECOND;
    const id = lineIdentity({ ...line, key });
    if (this.second !== null && this.cursor !== null && second <= this.second) {
      if (second < this.second) return false;
      const left = this.shipped.get(id);
      if (left !== undefined) {
        if (left === 1) this.shipped.delete(id);
        else this.shipped.set(id, left - 1);
        return false;
      }
      if (this.unlisted > 0) {
        this.unlisted--;
        return false;
      }
      const cur = this.cursor;
      if (key > BigInt(cur.key)) cur.key = key.toString();
      cur.count++;
      if (cur.lines.length < CURSOR_LINES) cur.lines.push(id);
      return true;
    }
    this.second = second;
    this.shipped.clear();
    this.unlisted = 0;
    this.cursor = { key: key.toString(), count: 1, lines: [id] };
    return true;
  }
}
