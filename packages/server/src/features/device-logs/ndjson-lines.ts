/**
 * Splits a byte stream into lines as chunks arrive (NDJSON), without ever holding more than
 * `maxLineBytes` of one line: a line longer than that is dropped whole (counted in
 * `dropped`), its bytes discarded as they come, and splitting resumes after its newline.
 * Lines are decoded as UTF-8; empty lines (keep-alives) are skipped; a trailing `\r` is cut.
 */
export class NdjsonLines {
  private parts: Buffer[] = [];
  private size = 0;
  /** Inside a line already over the cap: discard until its newline. */
  private skipping = false;
  /** Lines dropped for being longer than the cap. */
  dropped = 0;

  constructor(private readonly maxLineBytes: number) {}

  /** The complete lines of `chunk` (with what was held from earlier chunks). */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1) {
        this.hold(chunk.subarray(start));
        return lines;
      }
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      if (this.size + piece.length > this.maxLineBytes) {
        this.reset();
        this.dropped += 1;
        continue;
      }
      const line = this.size === 0 ? piece.toString('utf8') : Buffer.concat([...this.parts, piece]).toString('utf8');
      this.reset();
      const text = line.endsWith('\r') ? line.slice(0, -1) : line;
      if (text.trim() !== '') lines.push(text);
    }
  }

  /** What is left at the end of the stream: a last line without its newline, if any. */
  end(): string[] {
    if (this.skipping || this.size === 0) {
      this.reset();
      return [];
    }
    const text = Buffer.concat(this.parts).toString('utf8');
    this.reset();
    return text.trim() === '' ? [] : [text];
  }

  private hold(rest: Buffer): void {
    if (rest.length === 0 || this.skipping) return;
    if (this.size + rest.length > this.maxLineBytes) {
      this.reset();
      this.skipping = true;
      this.dropped += 1;
      return;
    }
    // Copy: the chunk's memory may be reused by the decompressor.
    this.parts.push(Buffer.from(rest));
    this.size += rest.length;
  }

  private reset(): void {
    this.parts = [];
    this.size = 0;
  }
}
