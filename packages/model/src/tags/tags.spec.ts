import { describe, expect, it } from 'vitest';
import { tagKeyProblem, TAG_KEY_MESSAGES } from './tags.js';

describe('tagKeyProblem', () => {
  it('accepts ordinary keys, dots and dashes included', () => {
    for (const key of ['room', 'io.example.floor', 'a-b_c:d', 'iobalena.x']) expect(tagKeyProblem(key), key).toBeUndefined();
  });

  it('rejects the reserved namespaces with the dialect message', () => {
    expect(tagKeyProblem('io.resin.foo')).toBe('Tag keys beginning with io.resin. are reserved.');
    expect(tagKeyProblem('io.balena.foo')).toBe('Tag keys beginning with io.balena. are reserved.');
  });

  it('rejects whitespace anywhere and empty keys', () => {
    for (const key of ['my room', ' room', 'room\t', 'a\nb']) expect(tagKeyProblem(key), JSON.stringify(key)).toBe(TAG_KEY_MESSAGES.whitespace);
    expect(tagKeyProblem('')).toBe(TAG_KEY_MESSAGES.required);
    expect(tagKeyProblem(undefined)).toBe(TAG_KEY_MESSAGES.required);
  });
});
