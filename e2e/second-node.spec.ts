import { expect, test } from '@playwright/test';
import { registerApiUser } from './support/api';
import { startSecondNode, type SecondNode } from './support/second-node';
import { newEmail, submitLogin } from './support/users';

// The multi-node harness (issue 15): a second server process on the same database and Redis
// serves the same dashboard and data, so the logs, terminal and actions specs can put the
// browser on one process and the device's cloud link on the other.
let node: SecondNode;

test.beforeAll(async () => {
  node = await startSecondNode();
});
test.afterAll(async () => {
  await node?.stop();
});

test('a user registered on the first process signs in on the second and sees the same account', async ({ page, request }) => {
  const user = await registerApiUser(request, newEmail('second-node'));
  const me = await request.get(`${node.baseURL}/actor/v1/whoami`, { headers: { Authorization: `Bearer ${user.token}` } });
  expect(me.status()).toBe(200);
  expect((await me.json()).username).toBe(user.username);

  await page.goto(`${node.baseURL}/login`);
  await submitLogin(page, user.email);
  await expect(page).toHaveURL(new RegExp(`^${node.baseURL}/fleets$`));
});
