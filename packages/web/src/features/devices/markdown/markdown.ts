/**
 * A small markdown subset for device notes (spec 2 §2 "markdown supported"): headings,
 * paragraphs with line breaks, bold, italic, inline code, fenced code blocks, links and
 * lists. It parses to a plain tree that markdown-view.tsx turns into React elements, so no
 * HTML string is ever built: raw HTML in a note stays text, and links keep only http(s) and
 * mailto addresses.
 */

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'break' }
  | { type: 'code'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'em'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] };

export type Block =
  | { type: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; children: Inline[] }
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'code'; text: string }
  | { type: 'list'; ordered: boolean; items: Inline[][] };

/** Links only to the web and to mail: anything else (javascript:, data:, relative) stays text. */
export function safeHref(href: string): string | undefined {
  const trimmed = href.trim();
  return /^(https?:\/\/|mailto:)[^\s]+$/i.test(trimmed) ? trimmed : undefined;
}

const PUNCTUATION = /[\\`*_[\]()#+\-.!>~]/;
const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);

function pushText(out: Inline[], text: string): void {
  if (!text) return;
  const last = out[out.length - 1];
  if (last?.type === 'text') last.text += text;
  else out.push({ type: 'text', text });
}

/** Inline markup of one paragraph, heading or list item; newlines become line breaks. */
export function parseInline(source: string): Inline[] {
  const out: Inline[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\' && i + 1 < source.length && PUNCTUATION.test(source[i + 1]!)) {
      pushText(out, source[i + 1]!);
      i += 2;
      continue;
    }
    if (c === '\n') {
      out.push({ type: 'break' });
      i++;
      continue;
    }
    if (c === '`') {
      const end = source.indexOf('`', i + 1);
      if (end > i + 1) {
        out.push({ type: 'code', text: source.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
    }
    if ((c === '*' || c === '_') && source[i + 1] === c) {
      const delimiter = c + c;
      const end = source.indexOf(delimiter, i + 2);
      if (end > i + 2 && (c === '*' || (!isWordChar(source[i - 1]) && !isWordChar(source[end + 2])))) {
        out.push({ type: 'strong', children: parseInline(source.slice(i + 2, end)) });
        i = end + 2;
        continue;
      }
    }
    if ((c === '*' || c === '_') && source[i + 1] !== c && source[i + 1] !== ' ' && (c === '*' || !isWordChar(source[i - 1]))) {
      let end = source.indexOf(c, i + 1);
      // Skip a doubled delimiter inside (bold within italic).
      while (end !== -1 && source[end + 1] === c) end = source.indexOf(c, end + 2);
      if (end > i + 1 && source[end - 1] !== ' ' && (c === '*' || !isWordChar(source[end + 1]))) {
        out.push({ type: 'em', children: parseInline(source.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    if (c === '[') {
      const close = source.indexOf(']', i + 1);
      if (close > i + 1 && source[close + 1] === '(') {
        const end = source.indexOf(')', close + 2);
        if (end !== -1) {
          const label = parseInline(source.slice(i + 1, close));
          const href = safeHref(source.slice(close + 2, end));
          if (href) out.push({ type: 'link', href, children: label });
          else {
            for (const part of label) {
              if (part.type === 'text') pushText(out, part.text);
              else out.push(part);
            }
          }
          i = end + 1;
          continue;
        }
      }
    }
    pushText(out, c);
    i++;
  }
  return out;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,9}[.)]\s+(.*)$/;
const FENCE = /^\s*```/;

/** Blocks of a note: fenced code, headings, lists and blank-line separated paragraphs. */
export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ type: 'paragraph', children: parseInline(paragraph.join('\n')) });
    paragraph = [];
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (FENCE.test(line)) {
      flush();
      const body: string[] = [];
      i++;
      while (i < lines.length && !FENCE.test(lines[i]!)) body.push(lines[i++]!);
      i++; // the closing fence (or the end of the note)
      blocks.push({ type: 'code', text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      blocks.push({ type: 'heading', level: heading[1]!.length as 1 | 2 | 3 | 4 | 5 | 6, children: parseInline(heading[2]!) });
      i++;
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    if (bullet || numbered) {
      flush();
      const ordered = numbered !== null;
      const pattern = ordered ? NUMBERED : BULLET;
      const items: Inline[][] = [];
      let match: RegExpExecArray | null;
      while (i < lines.length && (match = pattern.exec(lines[i]!))) {
        items.push(parseInline(match[1]!));
        i++;
      }
      blocks.push({ type: 'list', ordered, items });
      continue;
    }
    if (line.trim() === '') flush();
    else paragraph.push(line);
    i++;
  }
  flush();
  return blocks;
}
