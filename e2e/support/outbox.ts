import { expect, type APIRequestContext } from '@playwright/test';

/** The platform administrator the e2e server is started with (playwright.config.ts). */
export const PLATFORM_ADMIN = { username: 'admin@flotilla.local', password: 'e2e-admin-password-123' };

/** POST /login_ as the platform administrator; returns the session token. */
export async function platformAdminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post('/login_', { data: PLATFORM_ADMIN });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.text()).trim();
}

/** The newest mail to `recipient` in /v7/email_outbox (platform administrators only), waiting for it. */
export async function latestMailTo(request: APIRequestContext, recipient: string): Promise<{ text_body: string; subject?: string }> {
  const token = await platformAdminToken(request);
  const filter = encodeURIComponent(`recipient eq '${recipient.replace(/'/g, "''")}'`);
  let mail: { text_body: string; subject?: string } | undefined;
  await expect
    .poll(async () => {
      const res = await request.get(`/v7/email_outbox?$orderby=id%20desc&$top=1&$filter=${filter}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(res.status(), await res.text()).toBe(200);
      mail = ((await res.json()) as { d: Array<{ text_body: string; subject?: string }> }).d[0];
      return mail !== undefined;
    })
    .toBe(true);
  return mail!;
}

/** The path of the first link to `pathPrefix` in a mail's text (the host is the server's public URL). */
export function linkPath(text: string, pathPrefix: string): string {
  const match = new RegExp(`${pathPrefix.replace(/\//g, '\\/')}[^\\s"'<>)]+`).exec(text);
  expect(match, `no ${pathPrefix} link in: ${text}`).not.toBeNull();
  return match![0];
}
