import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { changelogDecision, latestMajor, NEW_USER_MS, parseStoredMajor } from './changelog';
import ChangelogMarkdown from './components/changelog-markdown';
import { helpMenuLinks } from './links';

describe('latestMajor', () => {
  it('reads the newest released version, skipping Unreleased', () => {
    expect(latestMajor('# Changelog\n\n## [Unreleased]\n\n- x\n\n## [2.3.1] - 2026-11-27\n\n## [1.0.0] - 2026-01-01\n')).toBe(2);
    expect(latestMajor('## v12.0.0\n')).toBe(12);
    expect(latestMajor('## [0.1.0] - 2026-11-27')).toBe(0);
    expect(latestMajor('# Changelog\n\nnothing released')).toBeUndefined();
  });

  it('reads the repository CHANGELOG.md', async () => {
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(new URL('../../../../../CHANGELOG.md', import.meta.url), 'utf8');
    expect(latestMajor(text)).toBe(0);
  });
});

describe('changelogDecision', () => {
  const now = Date.parse('2026-11-27T12:00:00Z');
  it('shows the dialog when the stored major is below the latest, and not when it is not', () => {
    expect(changelogDecision({ stored: 1, latest: 2, now })).toBe('show');
    expect(changelogDecision({ stored: 2, latest: 2, now })).toBe('nothing');
    expect(changelogDecision({ stored: 3, latest: 2, now })).toBe('nothing');
    expect(changelogDecision({ stored: 1, latest: undefined, now })).toBe('nothing');
  });

  it('with nothing stored: shows it to a user older than a day, remembers silently for a new user, waits while unknown', () => {
    expect(changelogDecision({ stored: undefined, latest: 0, createdAt: new Date(now - NEW_USER_MS), now })).toBe('show');
    expect(changelogDecision({ stored: undefined, latest: 0, createdAt: new Date(now - NEW_USER_MS + 1), now })).toBe('remember');
    expect(changelogDecision({ stored: undefined, latest: 0, createdAt: undefined, now })).toBe('nothing');
  });

  it('reads only whole numbers from storage', () => {
    expect(parseStoredMajor('3')).toBe(3);
    for (const bad of [null, '', '-1', '1.5', 'x', '1e3']) expect(parseStoredMajor(bad), String(bad)).toBeUndefined();
  });
});

describe('the changelog markdown', () => {
  const html = (source: string) => renderToStaticMarkup(createElement(ChangelogMarkdown, { source }));

  it('renders headings, lists, emphasis and web links (in a new tab)', () => {
    expect(html('# Changelog\n\n## [1.0.0] - 2026-11-27\n\n### Added\n\n- **Fleets** and `code`\n- [docs](https://example.com/docs)').trim()).toBe(
      '<h3>[1.0.0] - 2026-11-27</h3>\n<h4>Added</h4>\n<ul>\n<li><strong>Fleets</strong> and <code>code</code></li>\n<li><a href="https://example.com/docs" target="_blank" rel="noopener noreferrer">docs</a></li>\n</ul>',
    );
  });

  it('never renders raw HTML, scripts or non-web links', () => {
    const out = html('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n- [x](javascript:alert(1)) <b>bold</b>\n\n![img](https://example.com/i.png)');
    // The markup stays text (escaped); the image and the javascript: link are dropped.
    expect(out).not.toMatch(/<(script|img|b)[\s>]/i);
    expect(out).not.toMatch(/<[^>]*(href|src)=/);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('<li>x &lt;b&gt;bold&lt;/b&gt;</li>');
  });
});

describe('helpMenuLinks', () => {
  it('lists the configured links in the header order and leaves out the unset ones', () => {
    const links = { gettingStartedUrl: 'https://a.test/start', featureRequestsUrl: null, forumsUrl: 'https://forums.test', helpCenterUrl: null, statusPageUrl: 'https://status.test' };
    expect(helpMenuLinks('/docs/', links)).toEqual([
      { key: 'getting_started', href: 'https://a.test/start' },
      { key: 'docs', href: '/docs/' },
      { key: 'forums', href: 'https://forums.test' },
      { key: 'status_page', href: 'https://status.test' },
    ]);
  });
});
