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

/**
 * Inserts `count` devices into one fleet with plain SQL (one statement, generate_series),
 * far faster than registering them: the device-table bench needs 100,000 rows, not their
 * keys. Each device gets its own actor as registration gives it; statuses are mixed the way
 * a large fleet looks (mostly operational, some offline, updating, reduced, configuring),
 * last_connectivity_event spread over the past days, so the table's order and the
 * per-status counts have real work to do. Returns how many rows were inserted.
 */
export async function seedDevicesSql(
  databaseUrl: string,
  fleet: { id: number; deviceTypeId: number },
  count: number,
): Promise<number> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const inserted = await client.query(
      `WITH actors AS (
         INSERT INTO actor SELECT FROM generate_series(1, $3::int) RETURNING id
       ), numbered AS (
         SELECT id AS actor, row_number() OVER (ORDER BY id) AS n FROM actors
       )
       INSERT INTO device (
         actor, uuid, device_name, belongs_to__application, is_of__device_type,
         is_online, api_heartbeat_state, last_connectivity_event, api_heartbeat_at, update_status, status, download_progress,
         os_version, os_variant, supervisor_version, ip_address, mac_address, cpu_usage, memory_usage, memory_total
       )
       SELECT actor,
              md5('bench-table-' || n),
              'bench-device-' || lpad(n::text, 6, '0'),
              $1, $2,
              n % 100 < 75,
              CASE WHEN n % 100 < 70 THEN 'online' WHEN n % 100 < 75 THEN 'timeout' WHEN n % 100 < 97 THEN 'offline' ELSE 'unknown' END,
              CASE WHEN n % 100 >= 97 THEN NULL ELSE now() - (n * interval '7 seconds') END,
              CASE WHEN n % 100 < 75 THEN now() ELSE NULL END,
              CASE WHEN n % 100 < 5 THEN 'downloading' ELSE 'done' END,
              CASE WHEN n % 100 < 5 THEN 'Downloading' ELSE 'Idle' END,
              CASE WHEN n % 100 < 5 THEN n % 100 * 20 ELSE NULL END,
              'balenaOS 6.0.10', CASE WHEN n % 5 = 0 THEN 'dev' ELSE 'prod' END, '16.7.1',
              '10.' || (n >> 16) || '.' || ((n >> 8) & 255) || '.' || (n & 255), NULL,
              (n * 7) % 100, 200 + n % 500, 1848
         FROM numbered`,
      [fleet.id, fleet.deviceTypeId, count],
    );
    // Statistics and the visibility map as autovacuum keeps them on a fleet that grew over months.
    await client.query('VACUUM ANALYZE device');
    return inserted.rowCount ?? 0;
  } finally {
    await client.end();
  }
}
