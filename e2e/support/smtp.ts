import { expect, type APIRequestContext } from '@playwright/test';
import { E2E_PORTS } from './ports';

/** The e2e SMTP sink's HTTP side (e2e/support/smtp-sink.mjs). */
export const SMTP_SINK_URL = `http://127.0.0.1:${E2E_PORTS.smtpHttp}`;

export interface ReceivedMail {
  subject: string;
  /** The decoded body (quoted-printable undone), text and HTML parts together. */
  body: string;
}

function decode(raw: string): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const subject = /^subject:\s*(.*)$/im.exec(head)?.[1]?.trim() ?? '';
  const body = raw
    .slice(split + 4)
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return { subject, body };
}

/** Waits for the newest mail to `address` whose subject matches, as received over SMTP. */
export async function receivedMail(request: APIRequestContext, address: string, subject: RegExp): Promise<ReceivedMail> {
  let found: ReceivedMail | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`${SMTP_SINK_URL}/messages?to=${encodeURIComponent(address)}`);
        const mails = ((await res.json()) as { raw: string }[]).map((m) => decode(m.raw)).filter((m) => subject.test(m.subject));
        found = mails.at(-1);
        return found !== undefined;
      },
      { timeout: 20_000, message: `a mail to ${address} matching ${subject}` },
    )
    .toBe(true);
  return found!;
}
