/**
 * The markdown of device notes (spec 2 §2 "markdown supported"), rendered by react-markdown
 * (markdown-view.tsx) and held to the subset the syntax dialog shows: headings, paragraphs
 * with line breaks, bold, italic, inline code, fenced code blocks, links and lists. Raw HTML
 * in a note stays text (react-markdown never renders it without a raw-HTML plugin), other
 * elements are replaced by their content, and links keep only http(s) and mailto addresses.
 */
import type { Element, Root } from 'hast';

/** The elements a note may render; any other is replaced by its content. */
export const NOTE_ELEMENTS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'strong', 'em', 'code', 'pre', 'a', 'ul', 'ol', 'li'];

/** Links only to the web and to mail: anything else (javascript:, data:, relative) stays text. */
export function safeHref(href: string): string | undefined {
  const trimmed = href.trim();
  return /^(https?:\/\/|mailto:)[^\s]+$/i.test(trimmed) ? trimmed : undefined;
}

/** react-markdown's `urlTransform`: a refused address becomes empty, and its link is unwrapped (noteElement). */
export const noteUrl = (url: string): string => safeHref(url) ?? '';

/** react-markdown's `allowElement`: a link without an allowed address shows as its text. */
export const noteElement = (element: Readonly<Element>): boolean => element.tagName !== 'a' || Boolean(element.properties.href);

/**
 * A rehype plugin that keeps the markup as compact as the subset's own renderer made it: no
 * newline text between blocks and list items or after a line break, code blocks without the
 * trailing newline CommonMark adds, and numbered lists that count from 1.
 */
export function rehypeCompactNote() {
  return (tree: Root) => compact(tree);
}

function compact(node: Root | Element): void {
  if (node.type === 'element' && node.tagName === 'pre') {
    for (const code of node.children) {
      if (code.type !== 'element') continue;
      const last = code.children.at(-1);
      if (last?.type === 'text') last.value = last.value.replace(/\n$/, '');
    }
    return;
  }
  if (node.type === 'element' && node.tagName === 'ol') delete node.properties.start;
  node.children = node.children.filter((child) => child.type !== 'text' || !/^\n+$/.test(child.value)) as typeof node.children;
  for (const child of node.children) if (child.type === 'element') compact(child);
}
