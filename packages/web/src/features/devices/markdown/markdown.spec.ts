import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown, safeHref } from './markdown';
import MarkdownView from './markdown-view';

const html = (source: string) => renderToStaticMarkup(createElement(MarkdownView, { source }));

describe('parseInline', () => {
  it('reads bold, italic, code and escapes', () => {
    expect(parseInline('a **b** *c* `d` \\*e\\*')).toEqual([
      { type: 'text', text: 'a ' },
      { type: 'strong', children: [{ type: 'text', text: 'b' }] },
      { type: 'text', text: ' ' },
      { type: 'em', children: [{ type: 'text', text: 'c' }] },
      { type: 'text', text: ' ' },
      { type: 'code', text: 'd' },
      { type: 'text', text: ' *e*' },
    ]);
  });

  it('leaves snake_case words and lone stars alone', () => {
    expect(parseInline('my_device_name 2 * 3')).toEqual([{ type: 'text', text: 'my_device_name 2 * 3' }]);
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

describe('parseMarkdown', () => {
  it('splits headings, paragraphs, lists and code blocks', () => {
    const blocks = parseMarkdown('# Title\n\nline one\nline two\n\n- a\n- b\n\n1. x\n2. y\n\n```\n**raw**\n```');
    expect(blocks.map((b) => b.type)).toEqual(['heading', 'paragraph', 'list', 'list', 'code']);
    expect(blocks[4]).toEqual({ type: 'code', text: '**raw**' });
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

  it('shows code blocks verbatim', () => {
    expect(html('```\n<b>*x*</b>\n```')).toBe('<pre><code>&lt;b&gt;*x*&lt;/b&gt;</code></pre>');
  });
});
