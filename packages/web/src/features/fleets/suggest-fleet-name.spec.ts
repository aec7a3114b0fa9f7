import { describe, expect, it } from 'vitest';
import { suggestFleetName } from './suggest-fleet-name';

/** A random source that replays the given values, then repeats the last one. */
const replay = (...values: number[]) => {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)]!;
};

describe('name suggestion', () => {
  it('suggests an adjective-noun pair that passes the name rules', () => {
    expect(suggestFleetName([], () => 0)).toMatch(/^[a-z]+-[a-z]+$/);
    expect(suggestFleetName([], () => 0.999)).toMatch(/^[a-z]{4,}-[a-z]+$/);
  });

  it("draws again when the pair is one of the organization's names, whatever the case", () => {
    const first = suggestFleetName([], () => 0);
    const next = suggestFleetName([first.toUpperCase()], replay(0, 0, 0.5, 0.5));
    expect(next).not.toBe(first);
    expect(next).toBe(suggestFleetName([], () => 0.5));
  });

  it('gives up after 500 retries and returns the last draw', () => {
    let draws = 0;
    const always = () => {
      draws++;
      return 0;
    };
    const taken = suggestFleetName([], () => 0);
    expect(suggestFleetName([taken], always)).toBe(taken);
    // two words per draw: the first draw plus 500 retries
    expect(draws).toBe(2 * 501);
  });
});
