import { getSdk } from 'balena-sdk';
import { describe, expect, it, vi } from 'vitest';

// The module reads `window.location.origin` for its SDK; give it one.
vi.mock('../../../lib/sdk', () => ({ sdk: getSdk({ apiUrl: 'http://flotilla.test', dataDirectory: false }) }));
const { describeChanges } = await import('./get-audit-events');

describe('describeChanges', () => {
  it('shows each changed field of each row as before → after, ∅ for a side that does not exist', () => {
    expect(
      describeChanges({
        '7': { before: { value: 'blue' }, after: { value: 'green' } },
        '8': { after: { name: 'MODE', value: '[masked]' } },
        '9': { before: { device_name: 'old' } },
      }),
    ).toEqual(['#7 value: "blue" → "green"', '#8 name: ∅ → "MODE"', '#8 value: ∅ → "[masked]"', '#9 device_name: "old" → ∅']);
  });

  it('shows nothing for entries without changes (staff reads, actions)', () => {
    expect(describeChanges(null)).toEqual([]);
    expect(describeChanges({})).toEqual([]);
  });
});
