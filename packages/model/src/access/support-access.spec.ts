import { describe, expect, it } from 'vitest';
import { supportAccessDefault } from './support-access.js';

describe('supportAccessDefault', () => {
  it('is five days ahead', () => {
    expect(supportAccessDefault(new Date('2026-01-01T00:00:00Z')).toISOString()).toBe('2026-01-06T00:00:00.000Z');
  });
});
