import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, sdkClient, signUp, type TestApp } from '../../../test/harness.js';

// Issue 12, item 3 (part): device.should_be_running__release is computed and read-only, the
// device's pin or else its fleet's target release; readable by $select, $filter and $expand
// as balena-sdk's getTargetReleaseHash and friends read it.
let t: TestApp;
let sdk: ReturnType<typeof sdkClient>;
let appId: number;

const hex = (n = 16) => randomBytes(n).toString('hex');

async function release(): Promise<{ id: number; commit: string }> {
  const commit = hex();
  const r = (await sdk.pine.post({ resource: 'release', body: { belongs_to__application: appId, commit, status: 'success', source: 'cloud', composition: {} } })) as { id: number };
  return { id: r.id, commit };
}

beforeAll(async () => {
  t = await buildTestApp();
  const apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const owner = await signUp(t.app);
  sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(owner.token);
  appId = (await sdk.models.application.create({ name: 'CompatTarget', deviceType: 'raspberrypi3', organization: owner.username })).id;
});
afterAll(async () => {
  await t?.close();
});

describe('device.should_be_running__release', () => {
  it("is the fleet's target, or the pin, through balena-sdk", async () => {
    const first = await release();
    const second = await release();
    await sdk.models.application.pinToRelease(appId, first.commit);
    const tracking = (await sdk.models.device.register(appId, sdk.models.device.generateUniqueKey())).id;
    const pinned = (await sdk.models.device.register(appId, sdk.models.device.generateUniqueKey())).id;
    await sdk.models.device.pinToRelease(pinned, second.commit);

    expect(await sdk.models.device.getTargetReleaseHash(tracking)).toBe(first.commit);
    expect(await sdk.models.device.getTargetReleaseHash(pinned)).toBe(second.commit);
    expect(await sdk.models.device.isTrackingApplicationRelease(tracking)).toBe(true);
    expect(await sdk.models.device.isTrackingApplicationRelease(pinned)).toBe(false);

    // $select (as {__id}), $filter on it and on its navigation, $orderby.
    const selected = await sdk.models.device.getAllByApplication(appId, { $select: ['id', 'should_be_running__release'], $orderby: { id: 'asc' } });
    expect(selected).toEqual([
      { id: tracking, should_be_running__release: { __id: first.id } },
      { id: pinned, should_be_running__release: { __id: second.id } },
    ]);
    const bySecond = await sdk.pine.get({ resource: 'device', options: { $select: 'id', $filter: { should_be_running__release: second.id } } });
    expect(bySecond.map((d) => d.id)).toEqual([pinned]);
    const byCommit = await sdk.pine.get({
      resource: 'device',
      options: { $select: 'id', $filter: { should_be_running__release: { $any: { $alias: 'r', $expr: { r: { commit: first.commit } } } } } },
    });
    expect(byCommit.map((d) => d.id)).toEqual([tracking]);

    // The fleet's target moves: a tracking device follows, a pinned one does not.
    await sdk.models.application.pinToRelease(appId, second.commit);
    expect(await sdk.models.device.getTargetReleaseHash(tracking)).toBe(second.commit);
    await sdk.models.device.trackApplicationRelease(pinned);
    await sdk.models.application.pinToRelease(appId, first.commit);
    expect(await sdk.models.device.getTargetReleaseHash(pinned)).toBe(first.commit);

    // $expand with a page of several devices (the deduplicated to-one path).
    const expanded = await sdk.pine.get({
      resource: 'device',
      options: { $select: 'id', $filter: { belongs_to__application: appId }, $expand: { should_be_running__release: { $select: 'commit' } }, $orderby: { id: 'asc' } },
    });
    expect(expanded.map((d) => (d.should_be_running__release as { commit: string }[])[0]?.commit)).toEqual([first.commit, first.commit]);
  });

  it('is read-only', async () => {
    const r = await release();
    const id = (await sdk.models.device.register(appId, sdk.models.device.generateUniqueKey())).id;
    await expect(sdk.pine.patch({ resource: 'device', id, body: { should_be_running__release: r.id } as never })).rejects.toMatchObject({ statusCode: 400 });
  });
});
