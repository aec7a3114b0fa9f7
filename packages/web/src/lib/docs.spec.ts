import { describe, expect, it } from 'vitest';
import { docsHref } from './docs';

describe('docsHref', () => {
  it('makes every documentation address below the configured base', () => {
    expect(docsHref('/docs/', 'index')).toBe('/docs/');
    expect(docsHref('/docs/', 'fleets')).toBe('/docs/fleets');
    expect(docsHref('https://docs.example.org/flotilla', 'blocks')).toBe('https://docs.example.org/flotilla/blocks');
  });
});
