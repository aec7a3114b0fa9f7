import { describe, expect, it } from 'vitest';
import { renderInline, renderMarkdown } from './markdown.js';

describe('docs markdown', () => {
  it('renders headings, paragraphs, lists and fenced code', () => {
    const html = renderMarkdown('# Fleets\n\nA fleet is\na group.\n\n- one\n- two\n\n1. first\n\n```\nnpm start <x>\n```\n');
    expect(html).toBe(
      '<h1>Fleets</h1>\n<p>A fleet is a group.</p>\n<ul><li>one</li><li>two</li></ul>\n<ol><li>first</li></ol>\n<pre><code>npm start &#60;x&#62;</code></pre>',
    );
  });

  it('escapes raw HTML and keeps only safe links', () => {
    expect(renderInline('<script>x</script> **bold** `a<b`')).toBe('&#60;script&#62;x&#60;/script&#62; <strong>bold</strong> <code>a&#60;b</code>');
    expect(renderInline('[guide](fleets) [site](https://example.org/a)')).toBe('<a href="fleets">guide</a> <a href="https://example.org/a">site</a>');
    expect(renderInline('[bad](javascript:alert(1))')).not.toContain('<a');
  });
});
