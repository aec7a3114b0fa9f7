import { describe, expect, it } from 'vitest';
import { appendBuildLog, buildLogBuffer, BUILD_LOG_TRUNCATE_AT, EMPTY_BUILD_LOG } from './build-log-buffer';

const numbered = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `line ${i + from}`).join('\n');

describe('build log buffer', () => {
  it('keeps a log of up to 3000 lines whole', () => {
    const b = buildLogBuffer(`${numbered(3000)}\n`);
    expect(b.lines).toHaveLength(3000);
    expect(b.dropped).toBe(0);
    expect(b.lines[0]).toBe('line 1');
  });

  it('truncates a longer log to its last 2999 lines and counts the dropped ones', () => {
    const b = buildLogBuffer(numbered(3001));
    expect(b.lines).toHaveLength(BUILD_LOG_TRUNCATE_AT);
    expect(b.dropped).toBe(2);
    expect(b.lines[0]).toBe('line 3');
    expect(b.lines.at(-1)).toBe('line 3001');
  });

  it('keeps truncating as chunks arrive', () => {
    let b = buildLogBuffer(`${numbered(2999)}\n`);
    b = appendBuildLog(b, `${numbered(5, 3000)}\n`);
    expect(b.lines).toHaveLength(2999);
    expect(b.dropped).toBe(5);
    expect(b.lines.at(-1)).toBe('line 3004');
  });

  it('joins a line split across two chunks', () => {
    let b = appendBuildLog(EMPTY_BUILD_LOG, 'Step 1/3 : FROM al');
    b = appendBuildLog(b, 'pine\nStep 2/3');
    expect(b.lines).toEqual(['Step 1/3 : FROM alpine', 'Step 2/3']);
    expect(b.endsWithNewline).toBe(false);
  });

  it('splits CRLF lines and strips colour escapes', () => {
    expect(buildLogBuffer('\u001b[32mok\u001b[0m\r\nnext\r\n').lines).toEqual(['ok', 'next']);
  });

  it('treats a missing log as empty', () => {
    expect(buildLogBuffer(null)).toEqual(EMPTY_BUILD_LOG);
  });
});
