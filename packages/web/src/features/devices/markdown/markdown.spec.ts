import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { safeHref } from './markdown';
import MarkdownView from './markdown-view';

const html = (source: string) => renderToStaticMarkup(createElement(MarkdownView, { source }));

describe('inline markup', () => {
  it('reads bold, italic, code and escapes', () => {
    expect(html('a **b** *c* `d` \\*e\\*')).toBe('<p>a <strong>b</strong> <em>c</em> <code>d</code> *e*</p>');
  });

  it('leaves snake_case words and lone stars alone', () => {
    expect(html('my_device_name 2 * 3')).toBe('<p>my_device_name 2 * 3</p>');
  });

  it('nests bold inside italic and reads underscores', () => {
    expect(html('*a **b** c* __d__ _e_')).toBe('<p><em>a <strong>b</strong> c</em> <strong>d</strong> <em>e</em></p>');
  });
});

describe('safeHref', () => {
  it('keeps http(s) and mailto only', () => {
    expect(safeHref('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeHref('http://x.test')).toBe('http://x.test');
    expect(safeHref('mailto:ops@example.com')).toBe('mailto:ops@example.com');
    for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,x', '/relative', 'vbscript:x', 'https://a b']) {
      expect(safeHref(bad), bad).toBeUndefined();
    }
  });
});

describe('blocks', () => {
  it('splits headings, paragraphs, lists and code blocks', () => {
    expect(html('# Title\n\nline one\nline two\n\n- a\n- b\n\n1. x\n2. y\n\n```\n**raw**\n```')).toBe(
      '<h1>Title</h1><p>line one<br/>line two</p><ul><li>a</li><li>b</li></ul><ol><li>x</li><li>y</li></ol><pre><code>**raw**</code></pre>',
    );
  });
});

describe('MarkdownView', () => {
  it('renders the subset as elements', () => {
    expect(html('## Site *B*\nrack **3**\n\n- [docs](https://example.com)\n- `x`\n\n3. one')).toBe(
      '<h2>Site <em>B</em></h2><p>rack <strong>3</strong></p>' +
        '<ul><li><a href="https://example.com" target="_blank" rel="noopener noreferrer">docs</a></li><li><code>x</code></li></ul>' +
        '<ol><li>one</li></ol>',
    );
  });

  it('keeps line breaks inside a paragraph', () => {
    expect(html('a\nb')).toBe('<p>a<br/>b</p>');
  });

  it('never produces raw HTML or script links', () => {
    const out = html('<img src=x onerror=alert(1)> <script>alert(1)</script>\n\n[click](javascript:alert(1))');
    expect(out).not.toContain('<img');
    expect(out).not.toContain('<script');
    expect(out).not.toContain('href');
    expect(out).toContain('&lt;script&gt;');
    expect(out).toContain('click');
  });

  it('renders only the subset: images, quotes and rules show their content or nothing', () => {
    const out = html('![tracker](https://example.com/pixel.png)\n\n> quoted\n\n---\n\n<https://example.com/auto>');
    expect(out).not.toMatch(/<(img|blockquote|hr)\b/);
    expect(out).toContain('quoted');
    expect(out).toContain('<a href="https://example.com/auto" target="_blank" rel="noopener noreferrer">https://example.com/auto</a>');
  });

  it('shows code blocks verbatim', () => {
    expect(html('```\n<b>*x*</b>\n```')).toBe('<pre><code>&lt;b&gt;*x*&lt;/b&gt;</code></pre>');
  });
});
