import { describe, expect, it } from 'vitest';
import { resourceInfo } from '../odata/resources.js';
import { toColumns, validateInput } from '../odata/validate.js';
import { linkWebResources, StoredWebResource, WEB_RESOURCE_MARK } from '../odata/web-resource.js';
import { resourcesDroppingFiles } from './garbage.js';
import { LinkSigner } from './signed-links.js';

const asset = resourceInfo('release_asset');
const none = new Set<string>();
const stored = { filename: 'a.bin', content_type: 'application/octet-stream', size: 3, key: 'K'.repeat(33) };

describe('WebResource fields', () => {
  it('take only a file the server stored, never a value from a JSON body', () => {
    expect(() => validateInput(asset, { asset: { ...stored } }, 'PATCH', none)).toThrow("Invalid value for field 'asset' on resource 'release_asset': expected a file uploaded as multipart/form-data");
    expect(() => validateInput(asset, { asset: 'https://elsewhere/x' }, 'PATCH', none)).toThrow(/expected a file/);
    const input = validateInput(asset, { asset: new StoredWebResource(stored) }, 'PATCH', none);
    expect(toColumns(asset, input, 'PATCH')).toEqual({ names: ['asset'], values: [JSON.stringify(stored)] });
    expect(validateInput(asset, { asset: null }, 'PATCH', none)).toEqual({ asset: null });
  });

  it('get their links only for the server’s own placeholders', () => {
    const text = JSON.stringify([{ href: `${WEB_RESOURCE_MARK}abc123` }, { note: 'flotilla-web-resource-00:abc123' }]);
    expect(JSON.parse(linkWebResources(text, (key) => `https://x/files/v1/${key}`))).toEqual([{ href: 'https://x/files/v1/abc123' }, { note: 'flotilla-web-resource-00:abc123' }]);
    expect(JSON.parse(linkWebResources(text, undefined))[0]).toEqual({ href: null });
  });

  it('are dropped by deletes of their own resource and of every resource whose delete cascades to it', () => {
    const dropping = resourcesDroppingFiles();
    expect([...dropping]).toEqual(expect.arrayContaining(['release_asset', 'release', 'application', 'organization']));
    expect(dropping.has('device')).toBe(false);
  });
});

describe('LinkSigner', () => {
  it('signs a subject until it expires, and nothing else', () => {
    let now = 1_000_000_000_000;
    const signer = new LinkSigner('s'.repeat(40), () => now);
    const { expires, signature } = signer.sign('file:abc', 60);
    expect(signer.verify('file:abc', String(expires), signature)).toBe(true);
    expect(signer.verify('file:abd', String(expires), signature)).toBe(false);
    expect(signer.verify('file:abc', String(expires + 1), signature)).toBe(false);
    expect(new LinkSigner('t'.repeat(40), () => now).verify('file:abc', String(expires), signature)).toBe(false);
    now += 61_000;
    expect(signer.verify('file:abc', String(expires), signature)).toBe(false);
  });
});
