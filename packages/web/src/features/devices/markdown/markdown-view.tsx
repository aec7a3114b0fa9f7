import { createElement, Fragment, type ReactNode } from 'react';
import { parseMarkdown, type Block, type Inline } from './markdown';

function inline(nodes: Inline[], prefix: string): ReactNode[] {
  return nodes.map((node, i) => {
    const key = `${prefix}.${i}`;
    switch (node.type) {
      case 'text':
        return createElement(Fragment, { key }, node.text);
      case 'break':
        return createElement('br', { key });
      case 'code':
        return createElement('code', { key }, node.text);
      case 'strong':
        return createElement('strong', { key }, ...inline(node.children, key));
      case 'em':
        return createElement('em', { key }, ...inline(node.children, key));
      case 'link':
        return createElement('a', { key, href: node.href, target: '_blank', rel: 'noopener noreferrer' }, ...inline(node.children, key));
    }
  });
}

function block(node: Block, i: number): ReactNode {
  const key = String(i);
  switch (node.type) {
    case 'heading':
      return createElement(`h${node.level}`, { key }, ...inline(node.children, key));
    case 'paragraph':
      return createElement('p', { key }, ...inline(node.children, key));
    case 'code':
      return createElement('pre', { key }, createElement('code', null, node.text));
    case 'list':
      return createElement(
        node.ordered ? 'ol' : 'ul',
        { key },
        node.items.map((item, j) => createElement('li', { key: j }, ...inline(item, `${key}.${j}`))),
      );
  }
}

/** The note as React elements (text nodes only: React escapes them, no HTML is injected). */
export function renderMarkdown(source: string): ReactNode[] {
  return parseMarkdown(source).map(block);
}

/** Lazily loaded (markdown-note.tsx): the rendered note inside the element the caller styles. */
export default function MarkdownView({ source }: { source: string }) {
  return createElement(Fragment, null, ...renderMarkdown(source));
}
