/**
 * The small markdown subset Flotilla's own guides (docs/guide/*.md) are written in, turned
 * into HTML for `/docs/…`: headings, paragraphs, `-` and `1.` lists, fenced code, inline
 * code, bold and links. Every piece of text is escaped, so raw HTML in a page stays text;
 * links keep only http(s), mailto and site-relative addresses.
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function safeHref(href: string): string | undefined {
  return /^(https?:\/\/|mailto:|\/|\.{0,2}\/|#)[^\s"'<>]*$/i.test(href) || /^[a-z0-9-]+(#[\w-]*)?$/i.test(href) ? href : undefined;
}

export function renderInline(source: string): string {
  let out = '';
  const re = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    out += escapeHtml(source.slice(last, m.index));
    if (m[1] !== undefined) out += `<code>${escapeHtml(m[1])}</code>`;
    else if (m[2] !== undefined) out += `<strong>${renderInline(m[2])}</strong>`;
    else {
      const href = safeHref(m[4]!);
      out += href === undefined ? escapeHtml(m[0]) : `<a href="${escapeHtml(href)}">${renderInline(m[3]!)}</a>`;
    }
    last = re.lastIndex;
  }
  return out + escapeHtml(source.slice(last));
}

export function renderMarkdown(source: string): string {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const html: string[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;
  const flush = () => {
    if (paragraph.length) html.push(`<p>${renderInline(paragraph.join(' '))}</p>`);
    paragraph = [];
    if (list) {
      const tag = list.ordered ? 'ol' : 'ul';
      html.push(`<${tag}>${list.items.map((i) => `<li>${renderInline(i)}</li>`).join('')}</${tag}>`);
    }
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('```')) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i]!.startsWith('```'); i++) code.push(lines[i]!);
      html.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    const item = /^\s*([-*]|\d+\.)\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const level = heading[1]!.length;
      html.push(`<h${level}>${renderInline(heading[2]!)}</h${level}>`);
    } else if (item) {
      const ordered = item[1] !== '-' && item[1] !== '*';
      if (paragraph.length || (list && list.ordered !== ordered)) flush();
      list ??= { ordered, items: [] };
      list.items.push(item[2]!);
    } else if (line.trim() === '') {
      flush();
    } else if (list && /^\s+/.test(line)) {
      list.items[list.items.length - 1] += ` ${line.trim()}`;
    } else {
      if (list) flush();
      paragraph.push(line.trim());
    }
  }
  flush();
  return html.join('\n');
}
