import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { DirectoryFileStore } from '../../infra/files/file-store.js';
import { fileGarbageJob } from '../../infra/files/garbage.js';
import { createTestDb, sdkClient, signUp, TEST_JWT_SECRET, type SignedUpUser } from '../../../test/harness.js';

// Issue 12: release assets through the published balena-sdk (models.release.asset), as a
// balena user drives them: small files go as multipart/form-data to /v7/release_asset, files
// over 5 MiB through beginUpload → PUT parts → commitUpload; hrefs are signed links.
const MiB = 1024 * 1024;
const MAX_BYTES = 7 * MiB;

let app: FastifyInstance;
let db: Awaited<ReturnType<typeof createTestDb>>;
let filesDir: string;
let store: DirectoryFileStore;
let apiUrl: string;
let owner: SignedUpUser;
let stranger: SignedUpUser;
let sdk: ReturnType<typeof sdkClient>;
let strangerSdk: ReturnType<typeof sdkClient>;

async function storedFiles(): Promise<string[]> {
  const names = await readdir(join(filesDir, 'objects')).catch(() => [] as string[]);
  return names.filter((n) => /^[A-Za-z0-9]+$/.test(n)).sort();
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

async function newRelease(name: string): Promise<{ appId: number; releaseId: number }> {
  const appId = (await sdk.models.application.create({ name, organization: owner.username, deviceType: 'raspberrypi3' })).id;
  const release = (await sdk.pine.post({
    resource: 'release',
    body: { belongs_to__application: appId, commit: randomBytes(16).toString('hex'), status: 'success', source: 'cloud', composition: {} },
  })) as { id: number };
  return { appId, releaseId: release.id };
}

beforeAll(async () => {
  db = await createTestDb();
  filesDir = await mkdtemp(join(tmpdir(), 'flotilla-asset-test-'));
  app = await buildApp({ db: db.db, jwtSecret: TEST_JWT_SECRET, files: { store: (store = new DirectoryFileStore(filesDir)), maxBytes: MAX_BYTES } });
  apiUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  owner = await signUp(app);
  stranger = await signUp(app);
  sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(owner.token);
  strangerSdk = sdkClient(apiUrl);
  await strangerSdk.auth.loginWithToken(stranger.token);
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
  await rm(filesDir, { recursive: true, force: true });
});

describe('balena-sdk release assets', () => {
  it('uploads a small file, lists, gets and $expands it from the release, and downloads the same bytes', async () => {
    const { releaseId } = await newRelease('AssetSmall');
    const bytes = randomBytes(200_000);
    const created = await sdk.models.release.asset.upload({ asset: new File([bytes], 'notes.bin', { type: 'application/x-notes' }), asset_key: 'notes', release: releaseId });
    expect(created).toMatchObject({ asset_key: 'notes', release: { __id: releaseId } });
    expect(created.asset).toMatchObject({ filename: 'notes.bin', content_type: 'application/x-notes', size: bytes.length, href: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/files\/v1\/[A-Za-z0-9]+\?expires=\d+&signature=/) });
    // The store key is never part of the API's value.
    expect(Object.keys(created.asset!).sort()).toEqual(['content_type', 'filename', 'href', 'size']);

    const byKey = await sdk.models.release.asset.get({ release: releaseId, asset_key: 'notes' });
    expect(byKey.id).toBe(created.id);
    expect((await sdk.models.release.asset.get(created.id)).asset?.size).toBe(bytes.length);
    const all = await sdk.models.release.asset.getAllByRelease(releaseId);
    expect(all.map((a) => a.asset_key)).toEqual(['notes']);
    const release = await sdk.models.release.get(releaseId, { $select: 'id', $expand: { release_asset: { $select: ['asset_key', 'asset'] } } });
    expect(release.release_asset?.[0]).toMatchObject({ asset_key: 'notes', asset: { filename: 'notes.bin', size: bytes.length } });

    const downloaded = await bytesOf((await sdk.models.release.asset.download(created.id)) as unknown as Readable);
    expect(downloaded.equals(bytes)).toBe(true);

    // The link is the authorisation: tampered or expired, it is refused.
    const href = new URL(created.asset!.href);
    href.searchParams.set('signature', 'x'.repeat(43));
    expect((await fetch(href)).status).toBe(401);
    href.searchParams.set('expires', '1');
    expect((await fetch(href)).status).toBe(401);
    const ok = await fetch(created.asset!.href);
    expect(ok.headers.get('content-disposition')).toContain('attachment; filename="notes.bin"');
  });

  it('uploads a large file in parts (beginUpload, signed part URLs, commitUpload) and downloads the same bytes', async () => {
    const { releaseId } = await newRelease('AssetLarge');
    const bytes = randomBytes(5 * MiB + 123_457);
    const progress: number[] = [];
    const asset = await sdk.models.release.asset.upload(
      { asset: new File([bytes], 'firmware.img'), asset_key: 'firmware', release: releaseId },
      { chunkSize: MiB, parallelUploads: 3, onUploadProgress: ({ uploaded }) => void progress.push(uploaded) },
    );
    // Six parts of 1 MiB and one of the rest.
    expect(progress).toHaveLength(6);
    expect(asset.asset).toMatchObject({ filename: 'firmware.img', content_type: 'application/octet-stream', size: bytes.length });
    const downloaded = await bytesOf((await sdk.models.release.asset.download({ release: releaseId, asset_key: 'firmware' })) as unknown as Readable);
    expect(downloaded.length).toBe(bytes.length);
    expect(downloaded.equals(bytes)).toBe(true);
    // The commit is in the organization's audit log (issue 21 item 5) with the file it set.
    const logged = await db.db.query<{ changes: Record<string, { after: { asset: { filename: string } } }> }>(
      `SELECT changes FROM audit_event WHERE kind = 'write' AND resource = 'release_asset' AND request LIKE '%/commitUpload' AND row_ids = $1`,
      [String(asset.id)],
    );
    expect(logged.rows).toHaveLength(1);
    expect(logged.rows[0]!.changes[String(asset.id)]!.after.asset).toMatchObject({ filename: 'firmware.img' });

    // Part URLs are signed: a forged one is refused.
    const begun = (await sdk.pine.post({
      resource: 'release_asset',
      id: asset.id,
      action: 'beginUpload',
      body: { asset: { filename: 'x.img', content_type: 'application/octet-stream', size: 6 * MiB, chunk_size: 5 * MiB } },
    })) as { asset: { uuid: string; uploadParts: { url: string; chunkSize: number; partNumber: number }[] } };
    expect(begun.asset.uploadParts.map((p) => [p.partNumber, p.chunkSize])).toEqual([[1, 5 * MiB], [2, MiB]]);
    const forged = new URL(begun.asset.uploadParts[1]!.url);
    forged.pathname = forged.pathname.replace(/\/2$/, '/1');
    expect((await fetch(forged, { method: 'PUT', body: new Uint8Array(10) })).status).toBe(401);
    // Past the configured maximum per asset: refused before anything is uploaded.
    await expect(
      sdk.pine.post({ resource: 'release_asset', id: asset.id, action: 'beginUpload', body: { asset: { filename: 'big', size: MAX_BYTES + 1, chunk_size: 5 * MiB } } }),
    ).rejects.toMatchObject({ statusCode: 400 });
  });

  it('refuses a second upload under the same key unless asked to overwrite; overwriting and removing delete the old files', async () => {
    const { releaseId } = await newRelease('AssetOverwrite');
    const before = await storedFiles();
    const first = await sdk.models.release.asset.upload({ asset: new File([Buffer.from('one')], 'a.txt', { type: 'text/plain' }), asset_key: 'a', release: releaseId });
    const [firstFile] = (await storedFiles()).filter((f) => !before.includes(f));
    expect(firstFile).toBeDefined();
    await expect(sdk.models.release.asset.upload({ asset: new File([Buffer.from('two')], 'a.txt'), asset_key: 'a', release: releaseId })).rejects.toThrow(/already exists/);
    const second = await sdk.models.release.asset.upload({ asset: new File([Buffer.from('two!')], 'b.txt', { type: 'text/plain' }), asset_key: 'a', release: releaseId }, { overwrite: true });
    expect(second.id).toBe(first.id);
    expect(second.asset).toMatchObject({ filename: 'b.txt', size: 4 });
    expect((await bytesOf((await sdk.models.release.asset.download(first.id)) as unknown as Readable)).toString()).toBe('two!');
    const after = await storedFiles();
    expect(after).not.toContain(firstFile);
    expect(after.length).toBe(before.length + 1);

    // The old link now leads nowhere.
    expect((await fetch(first.asset!.href)).status).toBe(404);
    await sdk.models.release.asset.remove({ release: releaseId, asset_key: 'a' });
    await expect(sdk.models.release.asset.get(first.id)).rejects.toThrow(/not found/);
    expect(await storedFiles()).toEqual(before);
  });

  it('accepts no file reference in a JSON body: a file field is written only by uploading', async () => {
    const { releaseId } = await newRelease('AssetJson');
    const other = await sdk.models.release.asset.upload({ asset: new File([Buffer.from('secret')], 's.txt'), asset_key: 's', release: releaseId });
    const key = /\/files\/v1\/([A-Za-z0-9]+)/.exec(other.asset!.href)![1];
    await expect(
      sdk.pine.post({ resource: 'release_asset', body: { release: releaseId, asset_key: 'copy', asset: { filename: 's.txt', href: other.asset!.href, key } as unknown as File } }),
    ).rejects.toMatchObject({ statusCode: 400 });
    // An asset created empty (as the SDK does before a multipart upload) and cleared again.
    const empty = (await sdk.pine.post({ resource: 'release_asset', body: { release: releaseId, asset_key: 'empty', asset: null } })) as { id: number; asset: unknown };
    expect(empty.asset).toBeNull();
    const files = await storedFiles();
    await sdk.pine.patch({ resource: 'release_asset', id: other.id, body: { asset: null } });
    expect(await storedFiles()).toHaveLength(files.length - 1);
  });

  it("keeps another organization's user out: they neither read nor write the assets", async () => {
    const { releaseId } = await newRelease('AssetPrivate');
    const asset = await sdk.models.release.asset.upload({ asset: new File([Buffer.from('private')], 'p.txt'), asset_key: 'p', release: releaseId });
    await expect(strangerSdk.models.release.asset.getAllByRelease(releaseId)).rejects.toThrow(/Release not found/);
    await expect(strangerSdk.models.release.asset.get(asset.id)).rejects.toThrow(/not found/);
    expect(await strangerSdk.pine.get({ resource: 'release_asset', options: { $select: 'id' } })).toEqual([]);
    const files = await storedFiles();
    // Writes: a new asset on the release (multipart) is refused like any foreign reference,
    // changing or deleting one touches nothing, the upload actions answer as for a missing row.
    await expect(
      strangerSdk.pine.post({ resource: 'release_asset', body: { release: releaseId, asset_key: 'mine', asset: new File([Buffer.from('x')], 'x.txt') } }),
    ).rejects.toMatchObject({ statusCode: 401 });
    await strangerSdk.pine.patch({ resource: 'release_asset', id: asset.id, body: { asset: new File([Buffer.from('evil')], 'evil.txt') } });
    await strangerSdk.pine.delete({ resource: 'release_asset', id: asset.id });
    await expect(
      strangerSdk.pine.post({ resource: 'release_asset', id: asset.id, action: 'beginUpload', body: { asset: { filename: 'x', size: 6 * MiB, chunk_size: 5 * MiB } } }),
    ).rejects.toMatchObject({ statusCode: 404 });
    // Without a credential a file is refused before it is stored.
    const form = new FormData();
    form.append('release', String(releaseId));
    form.append('asset_key', 'anon');
    form.append('asset', new File([Buffer.from('anon')], 'anon.txt'));
    expect((await fetch(`${apiUrl}/v7/release_asset`, { method: 'POST', body: form })).status).toBe(401);
    // The files their refused writes sent are not kept.
    expect(await storedFiles()).toEqual(files);
    const still = await sdk.models.release.asset.get(asset.id);
    expect(still.asset).toMatchObject({ filename: 'p.txt', size: 7 });
    expect((await bytesOf((await sdk.models.release.asset.download(asset.id)) as unknown as Readable)).toString()).toBe('private');
  });

  it('deletes the assets and their files with their release', async () => {
    const { appId, releaseId } = await newRelease('AssetCascade');
    // A newer release becomes the fleet's target, so this one may be deleted.
    await sdk.pine.post({ resource: 'release', body: { belongs_to__application: appId, commit: randomBytes(16).toString('hex'), status: 'success', source: 'cloud', composition: {} } });
    const before = await storedFiles();
    await sdk.models.release.asset.upload({ asset: new File([Buffer.from('1')], '1.txt'), asset_key: 'one', release: releaseId });
    await sdk.models.release.asset.upload({ asset: new File([Buffer.from('2')], '2.txt'), asset_key: 'two', release: releaseId });
    expect(await storedFiles()).toHaveLength(before.length + 2);
    await sdk.pine.delete({ resource: 'release', id: releaseId });
    expect(await sdk.pine.get({ resource: 'release_asset', options: { $filter: { release: releaseId } } })).toEqual([]);
    expect(await storedFiles()).toEqual(before);
  });

  it('removes the files of rows deleted outside the data API (raw SQL, account deletion) in the periodic job', async () => {
    const { appId } = await newRelease('AssetRawDelete');
    const { releaseId } = await newRelease('AssetRawDelete2');
    const before = await storedFiles();
    await sdk.models.release.asset.upload({ asset: new File([Buffer.from('raw')], 'raw.txt'), asset_key: 'raw', release: releaseId });
    expect(await storedFiles()).toHaveLength(before.length + 1);
    await db.db.query('DELETE FROM application WHERE id = ANY($1::integer[])', [[appId, (await sdk.models.release.get(releaseId, { $select: 'belongs_to__application' })).belongs_to__application.__id]]);
    // Queued by the trigger when the rows went; removed by the job.
    expect(await storedFiles()).toHaveLength(before.length + 1);
    await fileGarbageJob(db.db, store).run({});
    expect(await storedFiles()).toEqual(before);
  });
});
