import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

// Issue 19's settings: help links, the status feed and the announcement window.
describe('help links, status feed and announcement settings', () => {
  it('are unset by default', () => {
    const c = loadConfig({});
    expect([c.FLOTILLA_LINK_FORUMS, c.FLOTILLA_STATUS_FEED_URL, c.FLOTILLA_ANNOUNCEMENT_TEXT, c.FLOTILLA_ANNOUNCEMENT_FROM]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('take http(s) links and ISO instants', () => {
    const c = loadConfig({
      FLOTILLA_LINK_HELP_CENTER: 'https://help.example.com/',
      FLOTILLA_STATUS_FEED_URL: 'https://status.example.com/api/v2/summary.json',
      FLOTILLA_ANNOUNCEMENT_TEXT: 'Maintenance',
      FLOTILLA_ANNOUNCEMENT_FROM: '2026-11-21',
      FLOTILLA_ANNOUNCEMENT_UNTIL: '2026-11-29T12:00:00+01:00',
    });
    expect(c.FLOTILLA_LINK_HELP_CENTER).toBe('https://help.example.com/');
    expect(c.FLOTILLA_ANNOUNCEMENT_UNTIL).toBe('2026-11-29T12:00:00+01:00');
  });

  it('refuse other link schemes, dates that are not ISO and a window that ends before it starts', () => {
    expect(() => loadConfig({ FLOTILLA_LINK_FORUMS: 'javascript:alert(1)' })).toThrow(/FLOTILLA_LINK_FORUMS/);
    expect(() => loadConfig({ FLOTILLA_STATUS_FEED_URL: 'ftp://status.example.com/summary.json' })).toThrow(/FLOTILLA_STATUS_FEED_URL/);
    expect(() => loadConfig({ FLOTILLA_ANNOUNCEMENT_FROM: 'next tuesday' })).toThrow(/FLOTILLA_ANNOUNCEMENT_FROM/);
    expect(() => loadConfig({ FLOTILLA_ANNOUNCEMENT_UNTIL: '11/29/2026' })).toThrow(/FLOTILLA_ANNOUNCEMENT_UNTIL/);
    expect(() => loadConfig({ FLOTILLA_ANNOUNCEMENT_FROM: '2026-11-29', FLOTILLA_ANNOUNCEMENT_UNTIL: '2026-11-21' })).toThrow(/FLOTILLA_ANNOUNCEMENT_UNTIL: must be later/);
    expect(() => loadConfig({ FLOTILLA_ANNOUNCEMENT_TEXT: 'x'.repeat(501) })).toThrow(/FLOTILLA_ANNOUNCEMENT_TEXT/);
  });
});
