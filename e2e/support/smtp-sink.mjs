// A mail server for the e2e run (issue 6: "verify through the mail received over SMTP"):
// the e2e Flotilla server sends every mail here over SMTP (SMTP_URL in playwright.config.ts),
// and tests read what arrived over HTTP: GET /messages?to=<address> → [{ to, raw }], oldest first.
// Started by Playwright before the Flotilla server; stops with the run.
import { createServer } from 'node:http';
import { SMTPServer } from 'smtp-server';

const SMTP_PORT = Number(process.env.SMTP_SINK_PORT ?? 18025);
const HTTP_PORT = Number(process.env.SMTP_SINK_HTTP_PORT ?? 18026);
const messages = [];

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      for (const r of session.envelope.rcptTo) messages.push({ to: r.address.toLowerCase(), raw });
      callback();
    });
  },
});
smtp.listen(SMTP_PORT, '127.0.0.1');

createServer((req, res) => {
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${HTTP_PORT}`);
  if (url.pathname === '/health') return res.end('OK');
  if (url.pathname === '/messages') {
    const to = (url.searchParams.get('to') ?? '').toLowerCase();
    res.setHeader('content-type', 'application/json');
    return res.end(JSON.stringify(messages.filter((m) => !to || m.to === to)));
  }
  res.statusCode = 404;
  res.end();
}).listen(HTTP_PORT, '127.0.0.1');

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
