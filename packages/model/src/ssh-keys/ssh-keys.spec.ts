import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  SSH_KEY_INVALID,
  SSH_KEY_REQUIRED,
  SSH_KEY_TITLE_REQUIRED,
  decodeBase64,
  encodeBase64,
  importedKeyTitles,
  sha256,
  sshKeyFingerprint,
  sshKeyIdentity,
  validateSshKey,
} from './ssh-keys.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** An OpenSSH `ssh-ed25519 AAAA…` line for a fresh key (wire format: string type, string key). */
function ed25519Line(comment = 'me@laptop'): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const str = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  return `ssh-ed25519 ${Buffer.concat([str(Buffer.from('ssh-ed25519')), str(raw)]).toString('base64')} ${comment}`;
}

describe('sha256', () => {
  it('matches the FIPS 180-4 test vectors', () => {
    expect(hex(sha256(new Uint8Array()))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(sha256(new TextEncoder().encode('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex(sha256(new TextEncoder().encode('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('agrees with node:crypto on inputs around the block boundaries', () => {
    for (const n of [55, 56, 63, 64, 65, 119, 120, 1000, 4099]) {
      const data = randomBytes(n);
      expect(hex(sha256(data))).toBe(createHash('sha256').update(data).digest('hex'));
    }
  });
});

describe('base64', () => {
  it('round-trips and refuses what is not base64', () => {
    for (const n of [0, 1, 2, 3, 31, 32, 33]) {
      const data = randomBytes(n);
      expect(encodeBase64(data)).toBe(data.toString('base64'));
      expect(Buffer.from(decodeBase64(data.toString('base64'))!).equals(data)).toBe(true);
    }
    expect(decodeBase64('ab$c')).toBeNull();
    expect(decodeBase64('abcde')).toBeNull();
  });
});

describe('SSH key rules', () => {
  const key = ed25519Line();

  it('trims the title and the key', () => {
    expect(validateSshKey('  laptop ', `\n ${key}  \n`)).toEqual({ title: 'laptop', publicKey: key });
  });

  it('gives the mandatory messages for a missing title or key', () => {
    expect(validateSshKey('   ', key)).toEqual({ error: SSH_KEY_TITLE_REQUIRED });
    expect(validateSshKey('laptop', '  ')).toEqual({ error: SSH_KEY_REQUIRED });
    expect(SSH_KEY_TITLE_REQUIRED).toBe('The key title is mandatory!');
    expect(SSH_KEY_REQUIRED).toBe('The key is mandatory!');
  });

  it('accepts the spec key types with or without a comment and refuses anything else', () => {
    const body = key.split(' ')[1]!;
    for (const type of ['ssh-rsa', 'ssh-dss', 'ssh-ed25519', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp521']) {
      expect(validateSshKey('k', `${type} ${body}`)).toEqual({ title: 'k', publicKey: `${type} ${body}` });
      expect(validateSshKey('k', `${type} ${body} a comment with spaces`)).not.toHaveProperty('error');
    }
    for (const bad of [`ssh-foo ${body}`, body, `ssh-rsa`, `ssh-rsa not*base64`, `ssh-rsa  ${body}`, `ssh-rsa ${body}\nssh-rsa ${body}`]) {
      expect(validateSshKey('k', bad)).toEqual({ error: SSH_KEY_INVALID });
    }
  });

  it('computes the OpenSSH SHA256 fingerprint of the decoded key, without padding', () => {
    const body = key.split(' ')[1]!;
    const expected = createHash('sha256').update(Buffer.from(body, 'base64')).digest('base64').replace(/=+$/, '');
    expect(sshKeyFingerprint(key)).toBe(`SHA256:${expected}`);
    expect(sshKeyFingerprint(`ssh-ed25519 ${body}`)).toBe(`SHA256:${expected}`);
    expect(sshKeyFingerprint('ssh-rsa')).toBeNull();
  });

  it('treats keys that differ only in their comment as the same key', () => {
    const [type, body] = key.split(' ');
    expect(sshKeyIdentity(`${type} ${body} one`)).toBe(sshKeyIdentity(`  ${type} ${body} other  `));
  });
});

describe("'GitHub Key N' titles", () => {
  it('numbers from 1 when nothing is taken', () => {
    expect(importedKeyTitles([], 3)).toEqual(['GitHub Key 1', 'GitHub Key 2', 'GitHub Key 3']);
  });

  it('fills the first unused numbers, skipping taken ones', () => {
    expect(importedKeyTitles(['GitHub Key 1', 'GitHub Key 3', 'laptop', 'GitHub Key 10'], 3)).toEqual(['GitHub Key 2', 'GitHub Key 4', 'GitHub Key 5']);
  });

  it('answers nothing for no keys', () => {
    expect(importedKeyTitles(['GitHub Key 1'], 0)).toEqual([]);
  });
});
