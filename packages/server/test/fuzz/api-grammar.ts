import type { Rng } from './prng.js';
import type { FuzzRequest, FuzzWorld } from './request.js';
import { bodyValue, deepJson, EDGE_NUMBERS } from './v7-grammar.js';

/**
 * Grammars of the other HTTP APIs a fleet reaches (docs/fuzzing.md): the device API the agent
 * speaks (target state v2/v3, state reports v2/v3, registration, device keys, logs), the
 * registry (`/v2/…` distribution API and `/auth/v1/token`) and a few account endpoints.
 */

const hex = (rng: Rng, n: number) => Array.from({ length: n }, () => '0123456789abcdef'[rng.int(0, 15)]).join('');

function uuid(rng: Rng, world: FuzzWorld): string {
  return rng.weighted<() => string>([
    [8, () => (world.deviceUuids.length ? rng.pick(world.deviceUuids) : hex(rng, 32))],
    [1, () => hex(rng, 32)],
    [1, () => rng.pick(['', 'x', hex(rng, 62), 'ZZZZ', '..%2f..', '%00', ' '.repeat(3), '1'])],
  ])();
}

/** The device's own key when the request is the device speaking for itself (most of the time). */
function asDevice(rng: Rng, world: FuzzWorld, u: string): { headers: Record<string, string>; actor: string } | undefined {
  const i = world.deviceUuids.indexOf(u);
  const key = i >= 0 ? world.deviceKeys[i] : undefined;
  if (key !== undefined && rng.chance(0.7)) return { headers: { authorization: `Bearer ${key}` }, actor: `device ${u.slice(0, 7)}` };
  return undefined;
}

function report(rng: Rng, world: FuzzWorld): Record<string, unknown> {
  const fleet = world.fleetUuids.length ? rng.pick(world.fleetUuids) : hex(rng, 32);
  const field = (name: string, type: 'Integer' | 'Short Text' | 'Boolean') => bodyValue(rng, world, { name, type });
  const r: Record<string, unknown> = {};
  for (const [name, type] of [
    ['api_port', 'Integer'],
    ['status', 'Short Text'],
    ['is_online', 'Boolean'],
    ['os_version', 'Short Text'],
    ['supervisor_version', 'Short Text'],
    ['cpu_usage', 'Integer'],
    ['memory_usage', 'Integer'],
    ['ip_address', 'Short Text'],
    ['download_progress', 'Integer'],
    ['cpu_temp', 'Integer'],
    ['name', 'Short Text'],
  ] as const) {
    if (rng.chance(0.4)) r[name] = field(name, type);
  }
  if (rng.chance(0.6)) {
    r.apps = {
      [fleet]: {
        release_uuid: rng.chance(0.5) ? hex(rng, 32) : null,
        releases: {
          [hex(rng, 32)]: {
            services: { main: { image_id: rng.int(-1, 100), status: rng.pick(['Running', 'Downloading', 'x', '']), download_progress: rng.pick([0, 50, 100, 101, -1, null]) } },
          },
        },
      },
    };
  }
  if (rng.chance(0.05)) r.deep = deepJson(rng.int(10, 200));
  return r;
}

function logLines(rng: Rng): unknown {
  if (rng.chance(0.1)) return rng.pick<unknown>([{}, null, 'x', [null], [[]], deepJson(50)]);
  return Array.from({ length: rng.int(0, 30) }, () => ({
    message: rng.pick(['hello', '', 'x'.repeat(rng.int(1, 20_000)), '\u0000', '日本語😀', 1]),
    timestamp: rng.pick([Date.now(), 0, -1, 1e20, 'now', null]),
    isSystem: rng.chance(0.3),
    isStdErr: rng.chance(0.3),
    ...(rng.chance(0.5) ? { serviceId: rng.pick([1, 0, -1, 2 ** 40, 'x']) } : {}),
  }));
}

export function deviceRequest(rng: Rng, world: FuzzWorld): FuzzRequest {
  const u = uuid(rng, world);
  const as = asDevice(rng, world, u);
  const json = { 'content-type': 'application/json' };
  const req = rng.weighted<() => Omit<FuzzRequest, 'actor' | 'mutations' | 'kind'>>([
    [5, () => ({ method: 'GET', path: `/device/${rng.pick(['v2', 'v3'])}/${u}/state`, headers: {} })],
    [1, () => ({ method: 'GET', path: `/device/v3/fleet/${rng.pick(world.fleetUuids.length ? world.fleetUuids : [u])}/state${rng.chance(0.3) ? `?releaseUuid=${hex(rng, rng.int(0, 300))}` : ''}`, headers: {} })],
    [4, () => ({ method: 'PATCH', path: '/device/v3/state', headers: json, body: JSON.stringify(rng.chance(0.9) ? { [u]: report(rng, world) } : report(rng, world)) })],
    [2, () => ({ method: 'PATCH', path: `/device/v2/${u}/state`, headers: json, body: JSON.stringify({ local: report(rng, world), ...(rng.chance(0.2) ? { dependent: { apps: {}, devices: {} } } : {}) }) })],
    [
      1,
      () => ({
        method: 'POST',
        path: '/device/register',
        headers: json,
        body: JSON.stringify({
          user: rng.chance(0.5) ? rng.int(1, 20) : undefined,
          application: rng.pick([...(world.ids.application ?? [1]), -1, 0, 2 ** 31]),
          device_type: rng.pick(['raspberrypi3', 'nuc', 'x', '', 1]),
          uuid: rng.chance(0.8) ? hex(rng, 32) : u,
          api_key: rng.chance(0.8) ? hex(rng, 32) : rng.pick(['', 'x'.repeat(5000)]),
        }),
      }),
    ],
    [1, () => ({ method: 'POST', path: `/api-key/device/${rng.pick([...(world.ids.device ?? [1]).map(String), ...EDGE_NUMBERS])}/device-key`, headers: json, body: JSON.stringify({ apiKey: rng.chance(0.5) ? hex(rng, 32) : null, name: 'k' }) })],
  ])();
  return { kind: 'device', ...req, headers: { ...req.headers, ...(as?.headers ?? {}) }, actor: as?.actor ?? '', mutations: [] };
}

export function logsRequest(rng: Rng, world: FuzzWorld): FuzzRequest {
  const u = uuid(rng, world);
  const as = asDevice(rng, world, u);
  const req = rng.weighted<() => Omit<FuzzRequest, 'actor' | 'mutations' | 'kind'>>([
    [4, () => ({ method: 'POST', path: `/device/v2/${u}/logs`, headers: { 'content-type': 'application/json' }, body: JSON.stringify(logLines(rng)) })],
    [
      3,
      () => ({
        method: 'GET',
        path: `/device/v2/${u}/logs${rng.chance(0.7) ? `?count=${rng.pick(['1', '10', '1000', 'all', '0', '-1', 'x', ...EDGE_NUMBERS])}${rng.chance(0.3) ? `&start=${rng.pick(['0', '-1', 'x', String(Date.now()), ...EDGE_NUMBERS])}` : ''}` : ''}`,
        headers: {},
      }),
    ],
    [1, () => ({ method: 'DELETE', path: `/device/v2/${u}/logs`, headers: {} })],
  ])();
  return { kind: 'logs', ...req, headers: { ...req.headers, ...(as?.headers ?? {}) }, actor: as?.actor ?? '', mutations: [] };
}

export function registryRequest(rng: Rng, world: FuzzWorld): FuzzRequest {
  const repo = rng.chance(0.8) && world.repositories.length ? rng.pick(world.repositories) : rng.pick(['v2/x', 'library/busybox', hex(rng, 32), 'a/b/c/d', '..', 'v2/../../etc']);
  const digest = rng.chance(0.7) ? `sha256:${hex(rng, 64)}` : rng.pick(['sha256:', 'md5:abc', 'latest', 'x'.repeat(300), 'sha256:zz']);
  const ref = rng.chance(0.5) ? rng.pick(['latest', 'v1', 'a'.repeat(200)]) : digest;
  const uploadId = rng.chance(0.5) ? hex(rng, 32) : rng.pick(['x', '', '00000000-0000-0000-0000-000000000000']);
  const manifest = JSON.stringify({ schemaVersion: rng.pick([2, 1, 3, 'x']), mediaType: 'application/vnd.docker.distribution.manifest.v2+json', config: { digest, size: rng.int(-1, 100) }, layers: rng.chance(0.5) ? [{ digest, size: 1 }] : 'x' });
  const req = rng.weighted<() => Omit<FuzzRequest, 'actor' | 'mutations' | 'kind'>>([
    [1, () => ({ method: 'GET', path: '/v2/', headers: {} })],
    [3, () => ({ method: rng.pick(['GET', 'HEAD']), path: `/v2/${repo}/manifests/${ref}`, headers: { accept: 'application/vnd.docker.distribution.manifest.v2+json' } })],
    [3, () => ({ method: rng.pick(['GET', 'HEAD']), path: `/v2/${repo}/blobs/${digest}`, headers: rng.chance(0.2) ? { range: rng.pick(['bytes=0-10', 'bytes=10-0', 'bytes=x', 'bytes=0-99999999999999999999']) } : {} })],
    [1, () => ({ method: 'GET', path: `/v2/${repo}/tags/list${rng.chance(0.3) ? `?n=${rng.pick(EDGE_NUMBERS)}&last=x` : ''}`, headers: {} })],
    [1, () => ({ method: 'GET', path: `/v2/_catalog?n=${rng.pick(EDGE_NUMBERS)}`, headers: {} })],
    [2, () => ({ method: 'POST', path: `/v2/${repo}/blobs/uploads/${rng.chance(0.3) ? `?digest=${digest}` : ''}${rng.chance(0.1) ? `?mount=${digest}&from=${repo}` : ''}`, headers: { 'content-type': 'application/octet-stream' }, body: rng.chance(0.5) ? 'x'.repeat(rng.int(0, 100)) : '' })],
    [2, () => ({ method: rng.pick(['PATCH', 'PUT', 'GET', 'DELETE']), path: `/v2/${repo}/blobs/uploads/${uploadId}${rng.chance(0.5) ? `?digest=${digest}` : ''}`, headers: { 'content-type': 'application/octet-stream', ...(rng.chance(0.3) ? { 'content-range': rng.pick(['0-10', '5-1', 'x']) } : {}) }, body: 'y'.repeat(rng.int(0, 64)) })],
    [2, () => ({ method: 'PUT', path: `/v2/${repo}/manifests/${ref}`, headers: { 'content-type': rng.pick(['application/vnd.docker.distribution.manifest.v2+json', 'application/vnd.oci.image.manifest.v1+json', 'text/plain']) }, body: rng.chance(0.8) ? manifest : '{' })],
    [1, () => ({ method: 'DELETE', path: `/v2/${repo}/manifests/${ref}`, headers: {} })],
  ])();
  // A registry client authenticates with a Bearer token (made per run) or Basic credentials.
  const headers = { ...req.headers };
  let actor = 'anonymous';
  const auth = rng.weighted([[6, 'bearer'], [2, 'basic'], [2, 'none']] as const);
  if (auth === 'bearer' && world.registryTokens.length) {
    headers.authorization = `Bearer ${rng.pick(world.registryTokens)}`;
    actor = 'registry token';
  } else if (auth === 'basic' && world.registryLogins.length) {
    headers.authorization = `Basic ${Buffer.from(rng.pick(world.registryLogins)).toString('base64')}`;
    actor = 'registry basic';
  }
  return { kind: 'registry', ...req, headers, actor, mutations: [] };
}

export function tokenRequest(rng: Rng, world: FuzzWorld): FuzzRequest {
  const q = new URLSearchParams();
  if (rng.chance(0.9)) q.set('service', rng.chance(0.8) ? world.host : rng.pick(['', 'x', 'evil.example']));
  for (let i = rng.int(0, 3); i > 0; i--) {
    const repo = world.repositories.length && rng.chance(0.7) ? rng.pick(world.repositories) : rng.pick(['v2/x', '', '*', 'a:b']);
    q.append('scope', rng.chance(0.9) ? `repository:${repo}:${rng.pick(['pull', 'push', 'pull,push', '*', '', 'delete'])}` : rng.pick(['registry:catalog:*', 'x', ':::', 'repository::']));
  }
  const headers: Record<string, string> = {};
  let actor = 'anonymous';
  if (rng.chance(0.8) && world.registryLogins.length) {
    const login = rng.chance(0.9) ? rng.pick(world.registryLogins) : rng.pick(['x:y', ':', 'a', `${'u'.repeat(500)}:p`]);
    headers.authorization = rng.chance(0.95) ? `Basic ${Buffer.from(login).toString('base64')}` : rng.pick(['Basic', 'Basic !!!', 'Bearer x', 'Basic ' + 'A'.repeat(5000)]);
    actor = 'registry basic';
  }
  return { kind: 'token', method: 'GET', path: `/auth/v1/token?${q.toString()}`, headers, actor, mutations: [] };
}

export function otherRequest(rng: Rng, world: FuzzWorld): FuzzRequest {
  const id = world.ids.organization?.length ? rng.pick(world.ids.organization) : 1;
  const req = rng.weighted<() => Omit<FuzzRequest, 'actor' | 'mutations' | 'kind'>>([
    [2, () => ({ method: 'GET', path: rng.pick(['/actor/v1/whoami', '/user/v1/whoami', '/device-types/v1', '/config', '/ping', '/user/v1/account-state', '/billing/v1/account/' + id]), headers: {} })],
    [1, () => ({ method: 'POST', path: '/api-key/user/full', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: rng.pick(['k', '', 'x'.repeat(10_000), null, 1]), description: rng.pick(['d', null]) }) })],
    [1, () => ({ method: 'POST', path: `/supervisor/v1/${rng.pick(['restart', 'reboot', 'blink', 'update', 'x'])}`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uuid: uuid(rng, world), data: rng.chance(0.5) ? { appId: rng.int(-1, 50) } : rng.pick([null, 'x', []]) }) })],
    [1, () => ({ method: 'GET', path: `/device/v2/${uuid(rng, world)}/nope`, headers: {} })],
  ])();
  return { kind: 'other', ...req, actor: '', mutations: [] };
}
