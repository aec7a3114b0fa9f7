import { describe, expect, it } from 'vitest';
import { formatSeatPrice } from './seat-price';

describe('formatSeatPrice', () => {
  it("formats the monthly seat price as '+$X.XX /mo' (spec 1 §9)", () => {
    expect(formatSeatPrice('administrator')).toBe('+$49.00 /mo');
    expect(formatSeatPrice('member')).toBe('+$0.00 /mo');
    expect(formatSeatPrice('operator')).toBe('+$29.00 /mo');
  });
});
