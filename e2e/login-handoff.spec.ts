import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { watchPageProblems } from './support/csp';
import { platformAdminToken } from './support/outbox';
import { newEmail, PASSWORD, registerUser, submitLogin } from './support/users';

/*
 * Issue 6, item 8: handing a dashboard session to another program.
 * - `balena login --web` opens /login/cli/{callback}; the dashboard posts the session token
 *   to the CLI's local server as the form field `token`.
 * - An OAuth application sends the user to /login/oauth/{clientId}?state=…; consent sends the
 *   browser to the application's redirect_uri with a code, which the application exchanges.
 * The "other program" in both is a small HTTP server on 127.0.0.2, an IP address the
 * dashboard's default policy does not cover (only 127.0.0.1 and localhost are).
 */

interface Received {
  method: string;
  url: string;
  body: string;
}

async function listen(): Promise<{ server: Server; origin: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      // The browser asks every new origin for its icon: not part of the handover.
      if (req.url !== '/favicon.ico') received.push({ method: req.method ?? '', url: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>done</title><h1>Handed over</h1>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.2:${port}`, received };
}

// What balena CLI opens: the callback encoded with encodeURIComponent, then every % as %25.
const cliPath = (callback: string) => `/login/cli/${encodeURIComponent(callback).replace(/%/g, '%25')}`;

test('balena login --web: after signing in, the CLI at an IP address receives a working session token', async ({ page, request }) => {
  const problems = await watchPageProblems(page);
  const cli = await listen();
  try {
    const email = newEmail('cli');
    await registerUser(request, email);
    // Signed out: the page asks for the login first and comes back.
    await page.goto(cliPath(`${cli.origin}/auth`));
    await expect(page).toHaveURL(/\/login$/);
    await submitLogin(page, email);
    await expect(page.getByRole('heading', { name: 'Log in to the CLI' })).toBeVisible();
    await expect(page.getByText(`The command line tool at ${new URL(cli.origin).host} asks to use your session`)).toBeVisible();
    await page.getByRole('button', { name: 'Authorize the CLI' }).click();
    await expect(page.getByRole('heading', { name: 'Handed over' })).toBeVisible();

    expect(cli.received).toHaveLength(1);
    expect(cli.received[0]).toMatchObject({ method: 'POST', url: '/auth' });
    const token = new URLSearchParams(cli.received[0]!.body).get('token');
    expect(token).toBeTruthy();
    const who = await request.get('/user/v1/whoami', { headers: { Authorization: `Bearer ${token}` } });
    expect(who.status()).toBe(200);
    expect(((await who.json()) as { email: string }).email).toBe(email);
    expect(problems.errors).toEqual([]);

    // A callback on a named host is refused: the user goes home and nothing is sent.
    await page.goto(cliPath('http://cli.example.com:8989/auth'));
    await expect(page).toHaveURL(/\/fleets$/);
    expect(cli.received).toHaveLength(1);
  } finally {
    cli.server.close();
  }
});

test('an OAuth application: consent sends a code to its redirect_uri with the state; denying sends access_denied', async ({ page, request }) => {
  const app = await listen();
  try {
    const clientId = `e2e-client-${Date.now().toString(36)}`;
    const redirectUri = `${app.origin}/callback`;
    const admin = await platformAdminToken(request);
    const created = await request.post('/v7/oauth_application', {
      headers: { Authorization: `Bearer ${admin}` },
      data: { client_id: clientId, redirect_uri: redirectUri, name: 'Fleet Reporter', description: 'Reads your fleets for weekly reports' },
    });
    expect(created.status(), await created.text()).toBe(201);

    const email = newEmail('oauth');
    await registerUser(request, email);
    await page.goto(`/login/oauth/${clientId}?state=xyz-123`);
    await expect(page).toHaveURL(/\/login$/);
    await submitLogin(page, email, PASSWORD);
    await expect(page.getByRole('heading', { name: 'Authorize Fleet Reporter' })).toBeVisible();
    await expect(page.getByText('Reads your fleets for weekly reports')).toBeVisible();

    // Deny first: the application hears access_denied with its state, and gets no code.
    await page.getByRole('button', { name: 'Deny' }).click();
    await expect(page.getByRole('heading', { name: 'Handed over' })).toBeVisible();
    const denied = new URL(app.received.at(-1)!.url, app.origin);
    expect(denied.pathname).toBe('/callback');
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('xyz-123');
    expect(denied.searchParams.get('code')).toBeNull();

    // Then consent: a code and the state, and the code buys a session of this user, once.
    await page.goto(`/login/oauth/${clientId}?state=abc-456`);
    await page.getByRole('button', { name: 'Authorize', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Handed over' })).toBeVisible();
    const granted = new URL(app.received.at(-1)!.url, app.origin);
    expect(granted.searchParams.get('state')).toBe('abc-456');
    const code = granted.searchParams.get('code')!;
    expect(code).toBeTruthy();
    const form = { grant_type: 'authorization_code', code, client_id: clientId, redirect_uri: redirectUri };
    const token = await request.post('/oauth/token', { form });
    expect(token.status(), await token.text()).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const who = await request.get('/user/v1/whoami', { headers: { Authorization: `Bearer ${access_token}` } });
    expect(((await who.json()) as { email: string }).email).toBe(email);
    expect((await request.post('/oauth/token', { form })).status()).toBe(400);

    // Coming back, the page says the application was authorised before.
    await page.goto(`/login/oauth/${clientId}?state=again`);
    await expect(page.getByText('You authorized this application before.')).toBeVisible();
  } finally {
    app.server.close();
  }
});
