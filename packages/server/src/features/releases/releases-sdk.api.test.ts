import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

// Releases through the published balena-sdk over real HTTP: a deploy made the way
// balena-cli makes one (through sdk.pine), then the release and fleet model calls the
// dashboard uses (spec 2 §7 Releases, Applications).
let t: TestApp;
let apiUrl: string;
let owner: SignedUpUser;
let sdk: ReturnType<typeof sdkClient>;

const commitHash = () => randomBytes(16).toString('hex');

interface DeployOptions {
  commit?: string;
  semver?: string;
  isFinal?: boolean;
  /** Leave the release running (a build in progress). */
  unfinished?: boolean;
}

/**
 * What `balena deploy` sends: POST release (running) → service get-or-create by
 * (application, service_name) → POST image (running) → POST image__is_part_of__release →
 * PATCH image success → PATCH release success.
 */
async function deploy(appId: number, opts: DeployOptions = {}): Promise<{ id: number; commit: string; imageId: number }> {
  const commit = opts.commit ?? commitHash();
  const release = (await sdk.pine.post({
    resource: 'release',
    body: {
      belongs_to__application: appId,
      is_created_by__user: owner.userId,
      commit,
      status: 'running',
      source: 'cloud',
      composition: { version: '2.1', services: { main: { build: { context: '.' } } } },
      start_timestamp: new Date(),
      ...(opts.semver ? { semver: opts.semver } : {}),
      ...(opts.isFinal === false ? { is_final: false } : {}),
    },
  })) as { id: number };
  const service = (await sdk.pine.getOrCreate({
    resource: 'service',
    id: { application: appId, service_name: 'main' },
    body: {},
  })) as { id: number };
  const image = (await sdk.pine.post({
    resource: 'image',
    body: { is_a_build_of__service: service.id, status: 'running', start_timestamp: new Date(), build_log: 'Step 1/1 : FROM alpine', dockerfile: 'FROM alpine', project_type: 'Standard Dockerfile' },
  })) as { id: number; is_stored_at__image_location: string };
  expect(image.is_stored_at__image_location).toMatch(/^localhost:8080\/v2\/[0-9a-f]{32}$/);
  await sdk.pine.post({ resource: 'image__is_part_of__release', body: { image: image.id, is_part_of__release: release.id } });
  if (!opts.unfinished) {
    const end = new Date();
    await sdk.pine.patch({ resource: 'image', id: image.id, body: { status: 'success', end_timestamp: end, push_timestamp: end, image_size: 7_340_032, content_hash: `sha256:${commit}` } });
    await sdk.pine.patch({ resource: 'release', id: release.id, body: { status: 'success', end_timestamp: end } });
  }
  return { id: release.id, commit, imageId: image.id };
}

async function createFleet(name: string): Promise<number> {
  return (await sdk.models.application.create({ name, organization: owner.username, deviceType: 'raspberrypi3' })).id;
}

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await signUp(t.app);
  sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(owner.token);
});
afterAll(async () => {
  await t?.close();
});

describe('balena-sdk releases', () => {
  it('finds a deployed release by commit, with its images and creator', async () => {
    const appId = await createFleet('SdkDeploy');
    const { id, commit } = await deploy(appId, { semver: '1.2.3' });
    const release = await sdk.models.release.get(commit);
    expect(release).toMatchObject({ id, commit, status: 'success', source: 'cloud', semver: '1.2.3', raw_version: '1.2.3', is_final: true, is_invalidated: false });
    const detailed = await sdk.models.release.getWithImageDetails(commit);
    expect(detailed.user).toMatchObject({ id: owner.userId, username: owner.username });
    expect(detailed.images).toHaveLength(1);
    expect(detailed.images[0]).toMatchObject({ service_name: 'main', id: expect.any(Number) });
    // The second deploy reuses the service (get-or-create).
    await deploy(appId);
    expect(await sdk.models.service.getAllByApplication(appId, { $select: 'service_name' })).toEqual([{ service_name: 'main' }]);
  });

  it('lists a fleet’s releases newest first, filtered as the release list does', async () => {
    const appId = await createFleet('SdkList');
    const a = await deploy(appId);
    const b = await deploy(appId);
    const running = await deploy(appId, { unfinished: true });
    const all = await sdk.models.release.getAllByApplication(appId, { $select: ['id', 'status'], $orderby: [{ created_at: 'desc' }, { id: 'desc' }] });
    expect(all.map((r) => r.id)).toEqual([running.id, b.id, a.id]);
    await sdk.models.release.setIsInvalidated(a.id, true);
    const valid = await sdk.models.release.getAllByApplication(appId, { $select: 'id', $filter: { status: 'success', is_invalidated: false } });
    expect(valid.map((r) => r.id)).toEqual([b.id]);
    expect((await sdk.models.release.getLatestByApplication(appId, { $select: 'id' }))?.id).toBe(b.id);
  });

  it('finalizes a draft, one-way', async () => {
    const appId = await createFleet('SdkFinal');
    const draft = await deploy(appId, { isFinal: false, semver: '2.0.0' });
    const before = await sdk.models.release.get(draft.commit, { $select: ['is_final', 'raw_version'] });
    expect(before.is_final).toBe(false);
    expect(before.raw_version).toMatch(/^2\.0\.0-\d{13}$/);
    expect(await sdk.models.application.getTargetReleaseHash(appId)).toBeUndefined();
    await sdk.models.release.finalize(draft.commit);
    expect(await sdk.models.release.get(draft.commit, { $select: ['is_final', 'raw_version'] })).toEqual({ is_final: true, raw_version: '2.0.0' });
    expect(await sdk.models.application.getTargetReleaseHash(appId)).toBe(draft.commit);
    await expect(sdk.pine.patch({ resource: 'release', id: draft.id, body: { is_final: false } })).rejects.toThrow('already finalized');
  });

  it('invalidates and validates, moving a tracking fleet, and refuses to validate failed releases', async () => {
    const appId = await createFleet('SdkValid');
    const first = await deploy(appId);
    const second = await deploy(appId);
    expect(await sdk.models.application.getTargetReleaseHash(appId)).toBe(second.commit);
    await sdk.models.release.setIsInvalidated(second.commit, true);
    expect(await sdk.models.application.getTargetReleaseHash(appId)).toBe(first.commit);
    await sdk.models.release.setIsInvalidated(second.commit, false);
    expect(await sdk.models.application.getTargetReleaseHash(appId)).toBe(second.commit);

    const failed = await deploy(appId, { unfinished: true });
    await sdk.pine.patch({ resource: 'release', id: failed.id, body: { status: 'failed', end_timestamp: new Date() } });
    await sdk.models.release.setIsInvalidated(failed.commit, true);
    await expect(sdk.models.release.setIsInvalidated(failed.commit, false)).rejects.toThrow('cannot validate failed releases');
    expect((await sdk.models.release.get(failed.commit, { $select: 'is_invalidated' })).is_invalidated).toBe(true);
  });

  it('sets the note and the known issues', async () => {
    const { commit } = await deploy(await createFleet('SdkNotes'));
    await sdk.models.release.setNote(commit, 'Shipped on **Friday**');
    await sdk.models.release.setKnownIssueList(commit, 'Wi-Fi drops on resume');
    expect(await sdk.models.release.get(commit, { $select: ['note', 'known_issue_list'] })).toEqual({ note: 'Shipped on **Friday**', known_issue_list: 'Wi-Fi drops on resume' });
    await sdk.models.release.setNote(commit, null);
    expect((await sdk.models.release.get(commit, { $select: 'note' })).note).toBeNull();
  });

  it('sets, lists and removes release tags', async () => {
    const { id, commit } = await deploy(await createFleet('SdkTags'));
    await sdk.models.release.tags.set(commit, 'env', 'staging');
    await sdk.models.release.tags.set(id, 'env', 'production'); // an upsert: 409, then PATCH
    await sdk.models.release.tags.set(commit, 'approved', 'yes');
    const tags = await sdk.models.release.tags.getAllByRelease(commit);
    expect(tags.map((tag) => [tag.tag_key, tag.value])).toEqual([
      ['approved', 'yes'],
      ['env', 'production'],
    ]);
    await sdk.models.release.tags.remove(commit, 'env');
    expect((await sdk.models.release.tags.getAllByRelease(id)).map((tag) => tag.tag_key)).toEqual(['approved']);
  });
});

describe('balena-sdk fleet target release', () => {
  it('pins a fleet to a release and tracks the latest again', async () => {
    const appId = await createFleet('SdkPin');
    const old = await deploy(appId);
    const latest = await deploy(appId);
    expect(await sdk.models.application.isTrackingLatestRelease(appId)).toBe(true);
    expect(await sdk.models.application.getTargetReleaseHash(appId)).toBe(latest.commit);

    await sdk.models.application.pinToRelease(appId, old.commit);
    expect(await sdk.models.application.getTargetReleaseHash(appId)).toBe(old.commit);
    expect(await sdk.models.application.isTrackingLatestRelease(appId)).toBe(false);
    const newer = await deploy(appId);
    expect(await sdk.models.application.getTargetReleaseHash(appId)).toBe(old.commit);

    // A release that never succeeded cannot be pinned.
    const running = await deploy(appId, { unfinished: true });
    await expect(sdk.models.application.pinToRelease(appId, running.commit)).rejects.toMatchObject({ code: 'BalenaReleaseNotFound' });
    await expect(sdk.pine.patch({ resource: 'application', id: appId, body: { should_be_running__release: running.id } })).rejects.toThrow(
      'The target release must be a successful release of this fleet',
    );
    await expect(sdk.pine.delete({ resource: 'release', id: old.id })).rejects.toThrow('cannot delete pinned releases');

    await sdk.models.application.trackLatestRelease(appId);
    expect(await sdk.models.application.isTrackingLatestRelease(appId)).toBe(true);
    expect(await sdk.models.application.getTargetReleaseHash(appId)).toBe(newer.commit);
    await sdk.pine.delete({ resource: 'release', id: old.id });
    await expect(sdk.models.release.get(old.commit)).rejects.toMatchObject({ code: 'BalenaReleaseNotFound' });
  });
});

describe('balena-sdk fleets with releases', () => {
  it('tags, renames and removes a fleet that has releases', async () => {
    const appId = await createFleet('SdkFleetOps');
    const { commit } = await deploy(appId);
    await sdk.models.application.tags.set(appId, 'region', 'eu');
    await sdk.models.application.tags.set(appId, 'region', 'us');
    expect((await sdk.models.application.tags.getAllByApplication(appId)).map((tag) => [tag.tag_key, tag.value])).toEqual([['region', 'us']]);
    await sdk.models.application.tags.remove(appId, 'region');
    expect(await sdk.models.application.tags.getAllByApplication(appId)).toEqual([]);

    await sdk.models.application.rename(appId, 'SdkFleetRenamed');
    expect((await sdk.models.application.get(`${owner.username}/sdkfleetrenamed`, { $select: 'app_name' })).app_name).toBe('SdkFleetRenamed');

    await sdk.models.application.remove(appId);
    await expect(sdk.models.application.get(appId)).rejects.toMatchObject({ code: 'BalenaApplicationNotFound' });
    await expect(sdk.models.release.get(commit)).rejects.toMatchObject({ code: 'BalenaReleaseNotFound' });
  });
});
