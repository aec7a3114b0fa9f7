import { expect, type APIRequestContext } from '@playwright/test';
import { registerApiUser, type ApiUser } from './api';
import { arrangeSql } from './db';
import { PASSWORD } from './users';

/**
 * A new user made a support agent by the installation's operator (`user.platform_role` is not
 * writable through the API: the operator sets it in the database), with a session token issued afterwards.
 *
 * The server keeps each signed-in user's row for up to 5 s (infra/auth/authenticate.ts), and
 * registering the user already read it: until that copy expires the server still treats the
 * user as a customer. So this waits until a staff-only call answers 200; a test that went
 * on at once raced the cache (it read the fleet as a customer and was refused).
 */
export async function supportAgent(request: APIRequestContext, email: string, extraSql = ''): Promise<ApiUser> {
  const user = await registerApiUser(request, email);
  await arrangeSql(`UPDATE "user" SET platform_role = 'support_agent'${extraSql ? `, ${extraSql}` : ''} WHERE id = $1`, [user.id]);
  const login = await request.post('/login_', { data: { username: user.email, password: PASSWORD } });
  expect(login.status()).toBe(200);
  const token = (await login.text()).trim();
  await expect
    .poll(async () => (await request.get('/admin/v1/support/ticket-fields', { headers: { Authorization: `Bearer ${token}` } })).status(), {
      message: 'the server treats the user as a support agent',
      timeout: 15_000,
    })
    .toBe(200);
  return { ...user, token };
}
