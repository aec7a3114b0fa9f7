import type { ApiRow, ResourceName } from '@flotilla/model';
import { expect, type APIRequestContext } from '@playwright/test';
import { linkPath, platformAdminToken } from './outbox';
import { PASSWORD } from './users';

/** A user made through the API, with a session token for further API calls. */
export interface ApiUser {
  email: string;
  token: string;
  id: number;
  username: string;
}

/** POST /user/register (which answers with a session token), then GET /actor/v1/whoami for the user id. */
export async function registerApiUser(request: APIRequestContext, email: string, password = PASSWORD): Promise<ApiUser> {
  const res = await request.post('/user/register', { data: { email, password } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  const token = (await res.text()).trim();
  const me = await request.get('/actor/v1/whoami', { headers: { Authorization: `Bearer ${token}` } });
  expect(me.status(), await me.text()).toBe(200);
  // whoami's `id` is the actor; the user's own id is `actorTypeId`.
  const { actorTypeId, username } = (await me.json()) as { actorTypeId: number; username: string };
  return { email, token, id: actorTypeId, username };
}

/** A data API call as `user`; returns the parsed body (`d` for reads). */
/** A /v7 answer: rows of `R` with the `$select`ed fields `K`, typed from the model. */
export type V7<R extends ResourceName, K extends keyof ApiRow<R>> = { d: Pick<ApiRow<R>, K>[] };

export async function apiAs<T = unknown>(
  request: APIRequestContext,
  user: ApiUser,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  data?: unknown,
): Promise<T> {
  const res = await request.fetch(path, { method, headers: { Authorization: `Bearer ${user.token}` }, data });
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * Creates an organization as `admin` and adds `member` to it with the member role, the way a
 * person joins: `admin` invites their e-mail and `member` accepts with the mailed token (the
 * API accepts no membership POST for someone who shares no organization with the admin).
 */
export async function organizationWithMember(request: APIRequestContext, admin: ApiUser, member: ApiUser, name: string): Promise<number> {
  const { id } = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/organization', { name });
  const roles = await apiAs<V7<'organization_membership_role', 'id'>>(
    request,
    admin,
    'GET',
    `/v7/organization_membership_role?$select=id&$filter=${encodeURIComponent("name eq 'member'")}`,
  );
  await apiAs(request, admin, 'POST', '/v7/invitee__is_invited_to__organization', {
    invitee: member.email,
    is_invited_to__organization: id,
    organization_membership_role: roles.d[0]!.id,
  });
  // The invitation in the outbox, read as the platform administrator (signed in once).
  const outboxToken = await platformAdminToken(request);
  const filter = encodeURIComponent(`recipient eq '${member.email.replace(/'/g, "''")}' and contains(text_body, '/organization/invitation/')`);
  let text = '';
  await expect
    .poll(async () => {
      const res = await request.get(`/v7/email_outbox?$select=text_body&$orderby=id%20desc&$top=1&$filter=${filter}`, {
        headers: { Authorization: `Bearer ${outboxToken}` },
      });
      text = ((await res.json()) as V7<'email_outbox', 'text_body'>).d[0]?.text_body ?? '';
      return text !== '';
    })
    .toBe(true);
  const token = linkPath(text, '/organization/invitation/').split('/').pop()!;
  await apiAs(request, member, 'POST', `/org/v1/invitation/${token}`);
  return id;
}
