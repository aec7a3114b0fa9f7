import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { normalizeConfig, startAgent, type RunningAgent } from '@flotilla/agent';
import { buildApp } from '../../app.js';
import type { PoolDb } from '../../infra/db/db.js';
import { Mailer } from '../../infra/mail/mailer.js';
import { bearer, createTestDb, sdkClient, signUp, TEST_JWT_SECRET, type SignedUpUser } from '../../../test/harness.js';
import { createFleet, giveFleetRole, row } from '../../../test/support/fleet-helpers.js';
import { freePort } from '../../../test/support/net.js';
import { eventually } from '../../../test/support/cloud-link.js';

// Issue 14 item 4 (balenaOS way in): `POST /download-config`, as balena-sdk's os.getConfig
// calls it, mints a provisioning key and answers the config.json a device boots with. The
// server's public URL is the one a device reaches, so the test server listens on it.

let app: FastifyInstance;
let db: PoolDb;
let drop: () => Promise<void>;
let mailer: Mailer;
let apiUrl: string;
let owner: SignedUpUser;
let fleetId: number;
let dir: string;
const agents: RunningAgent[] = [];


beforeAll(async () => {
  const t = await createTestDb();
  db = t.db;
  drop = t.drop;
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  mailer = new Mailer({ db, publicUrl: apiUrl });
  app = await buildApp({ db, jwtSecret: TEST_JWT_SECRET, mailer, registryHost: 'registry.flotilla.test' });
  await app.listen({ port, host: '127.0.0.1' });
  owner = await signUp(app);
  fleetId = await createFleet(app, db, owner, 'ConfigFleet', 'raspberrypi3');
  dir = await mkdtemp(join(tmpdir(), 'flotilla-dlcfg-'));
});

afterAll(async () => {
  for (const a of agents) await a.stop();
  await app.close();
  await mailer.close();
  await drop();
  await rm(dir, { recursive: true, force: true });
});

const keyCount = async () => Number((await row<{ n: string }>(db, 'SELECT count(*) AS n FROM api_key'))!.n);

describe('POST /download-config', () => {
  it("answers balena-sdk's os.getConfig with a config.json whose new provisioning key boots a device into the fleet", async () => {
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(owner.token);
    const config = (await sdk.models.os.getConfig(fleetId, { version: '6.0.10', appUpdatePollInterval: 5, provisioningKeyName: 'first devices' })) as Record<string, unknown>;
    expect(config).toMatchObject({
      applicationId: fleetId,
      deviceType: 'raspberrypi3',
      userId: owner.userId,
      appUpdatePollInterval: 300_000,
      listenPort: 48484,
      apiEndpoint: apiUrl,
      registryEndpoint: 'registry.flotilla.test',
      apiKey: expect.stringMatching(/^\w{20,}$/),
    });
    // The key is the fleet's, under the name asked for.
    const key = await row<{ name: string; fleet: number }>(
      db,
      `SELECT k.name, a.id AS fleet FROM api_key k JOIN application a ON a.actor = k.is_of__actor WHERE k.name = 'first devices'`,
    );
    expect(key).toEqual({ name: 'first devices', fleet: fleetId });

    // The file as a device gets it: the agent registers with it and comes online in the fleet.
    const { config: agentConfig } = normalizeConfig({ ...config, appUpdatePollInterval: 1_000, updateLockPath: join(dir, 'lock') });
    const agent = await startAgent({ config: agentConfig, log: () => {}, downloadMs: 50, applyMs: 20, reportDebounceMs: 50 });
    agents.push(agent);
    const device = await eventually(
      () => row<{ is_online: boolean; fleet: number }>(db, 'SELECT is_online, belongs_to__application AS fleet FROM device WHERE uuid = $1', [agentConfig.uuid]),
      (r) => r?.is_online === true,
      15_000,
    );
    expect(device?.fleet).toBe(fleetId);
  });

  it('names a compatible device type, and refuses what it may not: another architecture, an unknown type, no version, no rights, another organization', async () => {
    const post = (token: string, payload: object) => app.inject({ method: 'POST', url: '/download-config', headers: bearer(token), payload });
    const aarch64 = await post(owner.token, { appId: fleetId, version: '6.0.10', deviceType: 'raspberrypi4-64' });
    expect(aarch64.statusCode, aarch64.body).toBe(200);
    expect(aarch64.json().deviceType).toBe('raspberrypi4-64');

    const before = await keyCount();
    const nuc = await post(owner.token, { appId: fleetId, version: '6.0.10', deviceType: 'intel-nuc' });
    expect(nuc.statusCode).toBe(400);
    expect(nuc.json()).toBe('Incompatible device type: intel-nuc');
    const unknown = await post(owner.token, { appId: fleetId, version: '6.0.10', deviceType: 'no-such-board' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toBe('Invalid device type: no-such-board');
    expect((await post(owner.token, { appId: fleetId })).statusCode).toBe(400);

    const observer = await signUp(app);
    await giveFleetRole(db, owner.orgId, fleetId, observer, 'observer');
    const refused = await post(observer.token, { appId: fleetId, version: '6.0.10' });
    expect(refused.statusCode).toBe(403);
    const stranger = await signUp(app);
    const hidden = await post(stranger.token, { appId: fleetId, version: '6.0.10' });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toBe('Application not found');
    expect(await keyCount()).toBe(before);

    const operator = await signUp(app);
    await giveFleetRole(db, owner.orgId, fleetId, operator, 'operator');
    expect((await post(operator.token, { appId: fleetId, version: '6.0.10' })).statusCode).toBe(200);
    expect(await keyCount()).toBe(before + 1);
  });
});
