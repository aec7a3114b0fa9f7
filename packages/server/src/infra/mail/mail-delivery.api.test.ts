import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { buildApp } from '../../app.js';
import { MAIL_DELIVERY_JOB } from '../jobs/mail-delivery.js';
import { MAIL_MAX_ATTEMPTS, Mailer } from './mailer.js';
import { createTestDb, TEST_JWT_SECRET } from '../../../test/harness.js';
import { eventually } from '../../../test/support/cloud-link.js';
import { freePort } from '../../../test/support/net.js';

/*
 * Durable mail delivery (infra/mail/mailer.ts, infra/jobs/mail-delivery.ts): mail is queued
 * in the transaction that causes it, delivered after commit, retried with backoff while SMTP
 * fails, given up after MAIL_MAX_ATTEMPTS, never sent twice; with jobs, delivery is a
 * pg-boss job. A real SMTP server in-process; real PostgreSQL.
 */
let t: Awaited<ReturnType<typeof createTestDb>>;
let smtp: SMTPServer;
let smtpUrl: string;
let closedUrl: string;
const received: string[] = [];

interface Row {
  status: string;
  attempts: number;
  error: string | null;
  due_in_s: number | null;
  sent_at: Date | null;
}
const row = async (id: number | null): Promise<Row | undefined> =>
  (
    await t.db.query<Row>(
      `SELECT status, attempts, error, sent_at, round(extract(epoch FROM next_attempt_at - now()))::int AS due_in_s FROM email_outbox WHERE id = $1`,
      [id],
    )
  ).rows[0];
/** Makes a queued mail's next attempt due now (standing in for the wait). */
const makeDue = (id: number) => t.db.query(`UPDATE email_outbox SET next_attempt_at = now() - interval '1 second' WHERE id = $1`, [id]);
const to = (n: string) => `${n}-${Math.random().toString(36).slice(2, 8)}@example.com`;

beforeAll(async () => {
  t = await createTestDb();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        received.push(...session.envelope.rcptTo.map((r) => r.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`;
  closedUrl = `smtp://127.0.0.1:${await freePort()}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await t.drop();
});

describe('queueing in a transaction', () => {
  it('delivers only after commit; a rollback leaves neither a row nor a mail', async () => {
    const mailer = new Mailer({ db: t.db, smtpUrl });
    const rolledBack = to('rollback');
    await expect(
      t.db.tx(async (tx) => {
        await mailer.queue(tx, { to: rolledBack, subject: 's', text: 't' });
        throw new Error('a later rule refuses the write');
      }),
    ).rejects.toThrow('a later rule');
    expect((await t.db.query('SELECT 1 FROM email_outbox WHERE recipient = $1', [rolledBack])).rowCount).toBe(0);

    const committed = to('commit');
    const id = await t.db.tx(async (tx) => {
      const queued = await mailer.queue(tx, { to: committed, subject: 's', text: 't' });
      expect(received).not.toContain(committed); // not before the commit
      return queued;
    });
    mailer.close();
    expect(received).toContain(committed);
    expect(received).not.toContain(rolledBack);
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 1, error: null });
    expect((await row(id))!.sent_at).toBeInstanceOf(Date);
  });
});

describe('without SMTP', () => {
  it('keeps a committed mail in the outbox at once (the row is the delivery), and a rolled-back one nowhere', async () => {
    const outbox = new Mailer({ db: t.db });
    const kept = to('kept');
    const id = await t.db.tx((tx) => outbox.queue(tx, { to: kept, subject: 's', text: 't' }));
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 1, error: null, due_in_s: null });
    const gone = to('gone');
    await expect(
      t.db.tx(async (tx) => {
        await outbox.queue(tx, { to: gone, subject: 's', text: 't' });
        throw new Error('refused later');
      }),
    ).rejects.toThrow('refused later');
    expect((await t.db.query('SELECT 1 FROM email_outbox WHERE recipient = $1', [gone])).rowCount).toBe(0);
    expect(received).not.toContain(kept); // nothing went to any SMTP server
  });
});

describe('retries', () => {
  it('keeps a mail queued with the error and a later attempt while SMTP is down, and delivers it once SMTP is back', async () => {
    const down = new Mailer({ db: t.db, smtpUrl: closedUrl, timeouts: { connection: 2_000 } });
    const recipient = to('retry');
    const first = await down.send({ to: recipient, subject: 's', text: 't' });
    down.close();
    expect(first.ok).toBe(false);
    const id = first.outboxId!;
    const queued = await row(id);
    expect(queued).toMatchObject({ status: 'queued', attempts: 1 });
    expect(queued!.error).toMatch(/ECONNREFUSED|connect/i);
    expect(queued!.due_in_s).toBeGreaterThanOrEqual(55); // the first wait is a minute
    expect(queued!.due_in_s).toBeLessThanOrEqual(60);

    // Not due yet: the retry sweep leaves it alone.
    const up = new Mailer({ db: t.db, smtpUrl });
    expect(await up.deliver(id)).toBeUndefined();
    await makeDue(id);
    expect(await up.deliverDue()).toBeGreaterThanOrEqual(1);
    up.close();
    expect(received).toContain(recipient);
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2, error: null, due_in_s: null });
  });

  it('the retry sweep clears a backlog larger than one batch in one run (mail queued before a crash)', async () => {
    // Queued and due, never handed to delivery: what a server killed after commit leaves.
    const recipients = Array.from({ length: 12 }, () => to('backlog'));
    for (const r of recipients) {
      await t.db.query(`INSERT INTO email_outbox (recipient, subject, text_body, sent_via, status, attempts, next_attempt_at) VALUES ($1, 's', 't', 'smtp', 'queued', 0, now() - interval '1 second')`, [r]);
    }
    const up = new Mailer({ db: t.db, smtpUrl });
    expect(await up.deliverDue(5)).toBeGreaterThanOrEqual(12);
    up.close();
    for (const r of recipients) expect(received).toContain(r);
  });

  it(`gives up after ${MAIL_MAX_ATTEMPTS} attempts, with growing waits`, async () => {
    const down = new Mailer({ db: t.db, smtpUrl: closedUrl, timeouts: { connection: 2_000 } });
    const id = (await down.send({ to: to('giveup'), subject: 's', text: 't' })).outboxId!;
    const waits: number[] = [(await row(id))!.due_in_s!];
    for (let attempt = 2; attempt <= MAIL_MAX_ATTEMPTS; attempt++) {
      await makeDue(id);
      await down.deliver(id);
      const r = (await row(id))!;
      if (r.status === 'queued') waits.push(r.due_in_s!);
    }
    down.close();
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: MAIL_MAX_ATTEMPTS, due_in_s: null });
    expect(waits).toHaveLength(MAIL_MAX_ATTEMPTS - 1);
    for (let i = 1; i < waits.length; i++) expect(waits[i]!).toBeGreaterThan(waits[i - 1]!);
    // Failed mail is not retried.
    await makeDue(id);
    expect(await new Mailer({ db: t.db }).deliver(id)).toBeUndefined();
  });

  it('never sends one mail twice when two deliverers race for it', async () => {
    const a = new Mailer({ db: t.db, smtpUrl });
    const b = new Mailer({ db: t.db, smtpUrl });
    const recipient = to('race');
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO email_outbox (recipient, subject, text_body, sent_via, status, next_attempt_at) VALUES ($1, 's', 't', 'smtp', 'queued', now()) RETURNING id`,
      [recipient],
    );
    const outcomes = await Promise.all([a.deliver(rows[0]!.id), b.deliver(rows[0]!.id)]);
    a.close();
    b.close();
    expect(outcomes.filter((o) => o === 'sent')).toHaveLength(1);
    expect(outcomes.filter((o) => o === undefined)).toHaveLength(1);
    expect(received.filter((r) => r === recipient)).toHaveLength(1);
  });

  it('records a malformed recipient as failed without an attempt', async () => {
    const mailer = new Mailer({ db: t.db, smtpUrl });
    const result = await mailer.send({ to: 'a@b.c\r\nBcc: x@y.z', subject: 's', text: 't' });
    mailer.close();
    expect(result).toMatchObject({ ok: false, outboxId: null });
    const { rows } = await t.db.query<{ status: string; attempts: number }>(`SELECT status, attempts FROM email_outbox WHERE recipient LIKE 'a@b.c%'`);
    expect(rows).toEqual([{ status: 'failed', attempts: 0 }]);
  });
});

describe('with the job runner', () => {
  it('hands committed mail to a mail-delivery job, which delivers it', async () => {
    const mailer = new Mailer({ db: t.db, smtpUrl });
    const app = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, mailer, jobs: { pollingIntervalSeconds: 0.5 } });
    try {
      const recipient = to('job');
      const sends: string[] = [];
      const runner = app.jobs!;
      const send = runner.send.bind(runner);
      runner.send = async (name, data) => {
        sends.push(name);
        return send(name, data);
      };
      const id = await t.db.tx((tx) => mailer.queue(tx, { to: recipient, subject: 's', text: 't' }));
      expect(sends).toEqual([MAIL_DELIVERY_JOB]);
      await eventually(() => row(id), (r) => r?.status === 'sent', 15_000);
      expect(received).toContain(recipient);
    } finally {
      await app.close();
      mailer.close();
    }
  });
});
