import Markdown, { type Components } from 'react-markdown';

/** The elements the changelog may render; any other (images, tables, raw HTML) is replaced by its content. */
export const CHANGELOG_ELEMENTS = ['h1', 'h2', 'h3', 'h4', 'p', 'ul', 'ol', 'li', 'a', 'strong', 'em', 'code', 'pre', 'br'];

/** Links only to the web: anything else (javascript:, data:, relative) becomes text. */
export function changelogUrl(url: string): string {
  return /^https?:\/\/[^\s]+$/i.test(url.trim()) ? url.trim() : '';
}

const components: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" />,
  // The file's own title is the dialog's; version headings one level below it.
  h1: () => null,
  h2: ({ node: _node, ...props }) => <h3 {...props} />,
  h3: ({ node: _node, ...props }) => <h4 {...props} />,
};

/**
 * CHANGELOG.md rendered by react-markdown: React builds every element from the parsed tree, so
 * no HTML string is injected; raw HTML in the file stays text.
 */
export default function ChangelogMarkdown({ source }: { source: string }) {
  return (
    <Markdown
      allowedElements={CHANGELOG_ELEMENTS}
      unwrapDisallowed
      allowElement={(element) => element.tagName !== 'a' || Boolean(element.properties.href)}
      urlTransform={changelogUrl}
      components={components}
    >
      {source}
    </Markdown>
  );
}
