import { describe, expect, it } from 'vitest';
import { parseCount, parseStart } from './device-logs.routes.js';

describe('reader query', () => {
  it('count: a whole number or all, at most the retention', () => {
    expect(parseCount(undefined, 1000, 1000)).toBe(1000);
    expect(parseCount(undefined, 1000, 10)).toBe(10);
    expect(parseCount('all', 1000, 50)).toBe(50);
    expect(parseCount('0', 1000, 50)).toBe(0);
    expect(parseCount('7', 1000, 50)).toBe(7);
    expect(parseCount('5000', 1000, 50)).toBe(50);
    for (const bad of ['-1', '1.5', 'ten', '']) expect(() => parseCount(bad, 1000, 50)).toThrow(/count/);
  });

  it('start: milliseconds or an ISO date', () => {
    expect(parseStart(undefined)).toBeUndefined();
    expect(parseStart('1700000000000')).toBe(1700000000000);
    expect(parseStart('2024-01-02T03:04:05Z')).toBe(Date.parse('2024-01-02T03:04:05Z'));
    for (const bad of ['yesterday', '2024-13-45', '-5']) expect(() => parseStart(bad)).toThrow(/start/);
  });
});
