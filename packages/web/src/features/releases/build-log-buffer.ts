/**
 * The release build-log viewer's buffer (spec 2 §2 "Release pages"): it keeps 3000 lines of
 * scrollback and truncates at 2999 lines. Our reading: once a log has more than 3000 lines,
 * the oldest are dropped so that 2999 remain, and the viewer's first line says how many
 * were dropped — 3000 lines on screen at most.
 */
export const BUILD_LOG_SCROLLBACK = 3000;
export const BUILD_LOG_TRUNCATE_AT = 2999;

export interface BuildLogBuffer {
  /** The lines kept, oldest first; the last one may still be growing (no newline yet). */
  lines: readonly string[];
  /** How many of the oldest lines were dropped. */
  dropped: number;
  /** Whether the text so far ended with a newline (the next chunk starts a new line). */
  endsWithNewline: boolean;
}

export const EMPTY_BUILD_LOG: BuildLogBuffer = { lines: [], dropped: 0, endsWithNewline: true };

// Colour and cursor escapes the builder writes; they are noise in a <pre>.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** Appends a chunk of log text (which may end in the middle of a line); pure. */
export function appendBuildLog(buffer: BuildLogBuffer, chunk: string): BuildLogBuffer {
  if (chunk === '') return buffer;
  const parts = chunk.replace(ANSI, '').split(/\r?\n/);
  const endsWithNewline = parts[parts.length - 1] === '';
  if (endsWithNewline) parts.pop();
  const lines = [...buffer.lines];
  if (!buffer.endsWithNewline && lines.length > 0 && parts.length > 0) {
    lines[lines.length - 1] += parts.shift()!;
  }
  lines.push(...parts);
  let dropped = buffer.dropped;
  if (lines.length > BUILD_LOG_SCROLLBACK) {
    const cut = lines.length - BUILD_LOG_TRUNCATE_AT;
    lines.splice(0, cut);
    dropped += cut;
  }
  return { lines, dropped, endsWithNewline };
}

/** The buffer of a whole log text (a release's or an image's build_log). */
export function buildLogBuffer(text: string | null | undefined): BuildLogBuffer {
  return appendBuildLog(EMPTY_BUILD_LOG, text ?? '');
}
