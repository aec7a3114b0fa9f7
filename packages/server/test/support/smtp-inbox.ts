import { SMTPServer } from 'smtp-server';
import { eventually } from './cloud-link.js';

export interface ReceivedMail {
  to: string[];
  /** The raw message with quoted-printable soft breaks and escapes decoded. */
  text: string;
}

/** Undoes quoted-printable: soft line breaks and =XX escapes (enough to read links in a mail). */
function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const m = /^=([0-9A-F]{2})/.exec(joined.slice(i, i + 3));
    if (m) {
      bytes.push(parseInt(m[1]!, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** A real SMTP server on loopback that keeps every message it receives (for mail tests). */
export class SmtpInbox {
  readonly mails: ReceivedMail[] = [];
  private readonly server: SMTPServer;
  url = '';

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          this.mails.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            text: decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8')),
          });
          callback();
        });
      },
    });
    // A client that dies mid-session (a server killed by a crash test) resets its connection:
    // not the inbox's failure, and not to be thrown as an unhandled 'error' event.
    this.server.on('error', () => undefined);
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `smtp://127.0.0.1:${(this.server.server.address() as { port: number }).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The mails received so far for `address`. */
  to(address: string): ReceivedMail[] {
    return this.mails.filter((m) => m.to.includes(address.toLowerCase()));
  }

  /** Waits for the `n`th mail (1-based) to `address` (of those `which` accepts, when given). */
  async nth(address: string, n: number, which: (mail: ReceivedMail) => boolean = () => true): Promise<ReceivedMail> {
    const list = await eventually(
      async () => this.to(address).filter(which),
      (l) => l.length >= n,
    );
    return list[n - 1]!;
  }
}

/** The first link in a mail whose path starts with `pathPrefix`, as a URL. */
export function mailLink(mail: ReceivedMail, pathPrefix: string): URL {
  const escaped = pathPrefix.replace(/[/.]/g, (c) => `\\${c}`);
  const m = new RegExp(`https?://[^\\s"'<>]+${escaped}[^\\s"'<>]+`).exec(mail.text);
  if (!m) throw new Error(`no ${pathPrefix} link in mail:\n${mail.text}`);
  return new URL(m[0]);
}
