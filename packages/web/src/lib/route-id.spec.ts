import { describe, expect, it } from 'vitest';
import { parseRouteId } from './route-id';

describe('parseRouteId', () => {
  it('accepts positive integers only', () => {
    expect(parseRouteId('42')).toBe(42);
    for (const bad of [undefined, '', 'abc', '0', '-1', '1.5', '1e3', ' 1', '12abc', '99999999999999999']) {
      expect(parseRouteId(bad)).toBeUndefined();
    }
  });
});
