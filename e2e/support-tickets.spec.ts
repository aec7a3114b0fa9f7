import { expect, test } from '@playwright/test';
import { registerApiUser } from './support/api';
import { seriousViolations } from './support/axe';
import { arrangeSql } from './support/db';
import { E2E_SUPPORT_INBOX } from './support/server-env';
import { supportAgent } from './support/staff';
import { receivedMail } from './support/smtp';
import { newEmail, PASSWORD, signIn } from './support/users';

/*
 * Issue 19 item 1: the built-in helpdesk in Chromium against the e2e server (billing off, so
 * support is open to verified members; FLOTILLA_SUPPORT_EMAIL set; mail over SMTP to the sink).
 * A member files a ticket with an attachment on /support (blank required fields and a file over
 * 5 MB refused first) and sees the success view; the ticket reaches the support inbox and the
 * requester's confirmation arrives; a support agent opens it in /admin, downloads the
 * attachment, replies, and the reply reaches the requester by mail.
 */

// axe is injected as an inline script, which the dashboard's CSP (rightly) forbids.
test.use({ bypassCSP: true });

test('a member files a ticket with an attachment; a support agent answers it from /admin by mail', async ({ page, browser, request }) => {
  test.setTimeout(240_000);
  const member = await registerApiUser(request, newEmail('ticketmember'));
  await arrangeSql('UPDATE "user" SET is_verified = true WHERE id = $1', [member.id]);
  const agentUser = await supportAgent(request, newEmail('ticketagent'), 'is_verified = true');
  const subject = `Devices drop off ${Date.now().toString(36)}`;

  await signIn(page, member.email, PASSWORD);
  await page.goto('/support');
  const form = page.getByRole('form', { name: 'Open a private support ticket' });
  await expect(form).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('navigation', { name: 'Support menu' }).getByRole('link', { name: 'Private support ticket' })).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  // Required fields show the blank message; nothing is sent.
  await form.getByRole('button', { name: 'Send ticket' }).click();
  await expect(form.getByText('This field cannot be blank')).toHaveCount(4);

  // A file over 5 MB is refused with the limit.
  await form.getByLabel('Attach files').setInputFiles({ name: 'huge.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(5 * 1024 * 1024 + 1) });
  await expect(form.getByText('huge.bin is larger than the limit of 5 MB')).toBeVisible();

  await form.getByRole('textbox', { name: 'Subject' }).fill(subject);
  await form.getByRole('textbox', { name: 'Describe the problem' }).fill('Since Tuesday some devices go offline every hour.');
  await form.getByRole('combobox', { name: 'What is it about?' }).click();
  await page.getByRole('option', { name: 'Devices and fleets' }).click();
  await form.getByRole('combobox', { name: 'How much does it affect you?' }).click();
  await page.getByRole('option', { name: 'Major: work is blocked' }).click();
  await form.getByRole('textbox', { name: 'Copy others (e-mail addresses)' }).fill('ops-lead@customer.test');
  await form.getByLabel('Attach files').setInputFiles({ name: 'kernel.log', mimeType: 'text/plain', buffer: Buffer.from('kernel: eth0 link down\n'.repeat(10)) });
  await expect(form.getByRole('button', { name: 'kernel.log' })).toBeVisible({ timeout: 30_000 });
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await form.getByRole('button', { name: 'Send ticket' }).click();

  const success = page.getByRole('status').filter({ hasText: 'Your ticket was sent' });
  await expect(success).toBeVisible({ timeout: 30_000 });
  const id = /Ticket #(\d+) was received/.exec((await success.textContent()) ?? '')?.[1];
  expect(id).toBeDefined();
  await expect(success.getByRole('button', { name: 'Create another ticket' })).toBeVisible();
  await expect(success.getByRole('button', { name: 'Go back' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Your organization’s tickets' }).getByRole('button', { name: `#${id} ${subject}` })).toBeVisible({ timeout: 30_000 });

  // The ticket reaches the support inbox over SMTP, with the attachment's link; the requester gets a confirmation.
  const toInbox = await receivedMail(request, E2E_SUPPORT_INBOX, new RegExp(`\\[Support #${id}\\]`));
  expect(toInbox.body).toContain(member.email);
  expect(toInbox.body).toContain('kernel.log');
  await receivedMail(request, member.email, new RegExp(`\\[Support #${id}\\] We received your request`));

  // A support agent answers it in /admin.
  const agentContext = await browser.newContext({ bypassCSP: true });
  const agent = await agentContext.newPage();
  try {
    await signIn(agent, agentUser.email, PASSWORD);
    await agent.goto('/admin');
    const section = agent.locator('section[aria-labelledby="admin-support-tickets"]');
    await expect(agent.getByRole('heading', { level: 2, name: 'Support tickets' })).toBeVisible({ timeout: 60_000 });
    const open = section.getByRole('button', { name: `#${id} ${subject}` });
    await expect(open).toBeVisible({ timeout: 30_000 });
    expect(await seriousViolations(agent, ['section[aria-labelledby="admin-support-tickets"]', 'section[aria-labelledby="admin-ticket-fields"]'])).toEqual([]);
    await open.click();
    const dialog = agent.getByRole('dialog', { name: `#${id} ${subject}` });
    await expect(dialog.getByText(member.email, { exact: false })).toBeVisible({ timeout: 30_000 });
    await expect(dialog.getByText('Devices and fleets')).toBeVisible();
    const link = dialog.getByRole('link', { name: 'kernel.log' });
    const download = await agent.request.get((await link.getAttribute('href'))!);
    expect(download.status()).toBe(200);
    expect(await download.text()).toContain('eth0 link down');
    expect(await seriousViolations(agent, ['[role="dialog"]'])).toEqual([]);
    await dialog.getByRole('textbox', { name: 'Reply to the requester' }).fill('Please update the agent; it fixes the link flapping.');
    await dialog.getByRole('button', { name: 'Send reply' }).click();
    await expect(agent.getByText('Reply sent')).toBeVisible({ timeout: 30_000 });
    await expect(dialog.getByText('Please update the agent; it fixes the link flapping.')).toBeVisible({ timeout: 30_000 });
  } finally {
    await agentContext.close();
  }

  const reply = await receivedMail(request, member.email, new RegExp(`\\[Support #${id}\\] Re:`));
  expect(reply.body).toContain('Please update the agent; it fixes the link flapping.');
  await receivedMail(request, 'ops-lead@customer.test', new RegExp(`\\[Support #${id}\\] Re:`));
});
