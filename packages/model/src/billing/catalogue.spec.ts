import { describe, expect, it } from 'vitest';
import { deviceFeature, includedQuantity, seatFeature } from './catalogue.js';

describe('includedQuantity: what a plan includes of a usage resource', () => {
  const includes = { [deviceFeature('microservices-v1')]: 25 };

  it('includes the plan’s devices of their class, and none of another class', () => {
    expect(includedQuantity(deviceFeature('microservices-v1'), includes)).toBe(25);
    expect(includedQuantity(deviceFeature('legacy-v1'), includes)).toBe(0);
  });

  it('includes one administrator seat and no paid seat, whatever the plan lists', () => {
    expect(includedQuantity(seatFeature('administrator'), includes)).toBe(1);
    expect(includedQuantity(seatFeature('developer'), { ...includes, [seatFeature('developer')]: 3 })).toBe(0);
    expect(includedQuantity(seatFeature('operator'), { ...includes, [seatFeature('operator')]: 1 })).toBe(0);
  });

  it('never counts observer or member seats as overage (they are free and unlimited)', () => {
    for (const role of ['observer', 'member'] as const) {
      expect(Math.max(0, 10_000 - includedQuantity(seatFeature(role), {}))).toBe(0);
    }
  });
});
