import Markdown, { type Components } from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import { NOTE_ELEMENTS, noteElement, noteUrl, rehypeCompactNote } from './markdown';

const components: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" />,
};

/**
 * Lazily loaded (device-note-field.tsx): the note rendered by react-markdown, a newline being a
 * line break (remark-breaks), inside the element the caller styles. React builds the elements:
 * no HTML string is injected.
 */
export default function MarkdownView({ source }: { source: string }) {
  return (
    <Markdown
      remarkPlugins={[remarkBreaks]}
      rehypePlugins={[rehypeCompactNote]}
      allowedElements={NOTE_ELEMENTS}
      allowElement={noteElement}
      unwrapDisallowed
      urlTransform={noteUrl}
      components={components}
    >
      {source}
    </Markdown>
  );
}
