import { Api, firstRow, runPool } from './api.js';

export interface SeededUser {
  email: string;
  password: string;
  username: string;
  token: string;
  organizationId: number;
  fleetCount: number;
}

export const BENCH_USER = { email: 'bench@example.com', password: 'bench-user-password' } as const;
const DEVICE_TYPE_SLUG = 'raspberrypi4-64';

/**
 * Signs up the bench user and creates `fleets` fleets in their organization, all through
 * the public API (the server owns its database).
 */
export async function seed(baseUrl: string, fleets: number, concurrency: number): Promise<SeededUser> {
  const anonymous = new Api(baseUrl);
  const token = (await anonymous.text('POST', '/user/register', BENCH_USER)).trim();
  const api = anonymous.withToken(token);

  const { username } = await api.json<{ username: string }>('GET', '/actor/v1/whoami');
  type Ids = { d?: { id: number }[] };
  const org = firstRow(
    await api.json<Ids>('GET', `/v7/organization?$filter=${odataEq('handle', username)}&$select=id`),
    `organization with handle ${username}`,
  );
  const deviceType = firstRow(
    await api.json<Ids>('GET', `/v7/device_type?$filter=${odataEq('slug', DEVICE_TYPE_SLUG)}&$select=id`),
    `device type ${DEVICE_TYPE_SLUG}`,
  );

  await runPool(fleets, concurrency, async (i) => {
    await api.json('POST', '/v7/application', {
      app_name: `bench-fleet-${String(i + 1).padStart(4, '0')}`,
      organization: org.id,
      is_for__device_type: deviceType.id,
    });
  });

  return { ...BENCH_USER, username, token, organizationId: org.id, fleetCount: fleets };
}

/** `field eq 'value'`, URL-encoded, with the value's quotes doubled as OData requires. */
function odataEq(field: string, value: string): string {
  return encodeURIComponent(`${field} eq '${value.replaceAll("'", "''")}'`);
}
