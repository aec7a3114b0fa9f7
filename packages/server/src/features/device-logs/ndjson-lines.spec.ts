import { describe, expect, it } from 'vitest';
import { NdjsonLines } from './ndjson-lines.js';

const b = (s: string) => Buffer.from(s, 'utf8');

describe('NdjsonLines', () => {
  it('splits lines across chunks, skips empty lines and a trailing CR', () => {
    const lines = new NdjsonLines(100);
    expect(lines.push(b('{"a":1}\n{"b"'))).toEqual(['{"a":1}']);
    expect(lines.push(b(':2}\r\n\n\n{"c":3}'))).toEqual(['{"b":2}']);
    expect(lines.end()).toEqual(['{"c":3}']);
  });

  it('keeps a multi-byte character split between chunks whole', () => {
    const lines = new NdjsonLines(100);
    const bytes = b('"é"\n');
    expect(lines.push(bytes.subarray(0, 2))).toEqual([]);
    expect(lines.push(bytes.subarray(2))).toEqual(['"é"']);
  });

  it('drops a line over the cap without holding it, and resumes after its newline', () => {
    const lines = new NdjsonLines(10);
    expect(lines.push(b('123456'))).toEqual([]);
    expect(lines.push(b('7890abcdef'))).toEqual([]);
    expect(lines.push(b('more and more'))).toEqual([]);
    expect(lines.push(b('end\nok\n'))).toEqual(['ok']);
    expect(lines.dropped).toBe(1);
    expect(lines.push(b('0123456789A\nfine\n'))).toEqual(['fine']);
    expect(lines.dropped).toBe(2);
  });

  it('drops an unfinished over-long line at the end', () => {
    const lines = new NdjsonLines(4);
    lines.push(b('abcdefgh'));
    expect(lines.end()).toEqual([]);
    expect(lines.dropped).toBe(1);
  });
});
