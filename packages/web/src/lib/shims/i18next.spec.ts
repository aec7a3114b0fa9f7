import { describe, expect, it } from 'vitest';
import i18n, { t, useTranslation } from './i18next';

void i18n.init({
  lng: 'en',
  resources: {
    en: {
      translation: {
        greeting: 'Hello {{name}}',
        members: { count_one: '{{count}} member', count_other: '{{count}} members', title: 'Members' },
        devices: { count_zero: 'No devices', count_one: 'One device', count_other: '{{count}} devices' },
        plain: 'No placeholders',
      },
    },
  },
});

describe('i18next run-time shim', () => {
  it('looks up dotted keys and fills {{placeholders}}', () => {
    expect(t('members.title')).toBe('Members');
    expect(t('greeting', { name: 'Ada' })).toBe('Hello Ada');
    expect(t('plain', { name: 'unused' })).toBe('No placeholders');
  });

  it('picks the plural form by count, falling back to _other', () => {
    expect(t('members.count', { count: 1 })).toBe('1 member');
    expect(t('members.count', { count: 0 })).toBe('0 members');
    expect(t('members.count', { count: 7 })).toBe('7 members');
    // `_zero` wins for 0 when present, as in i18next.
    expect(t('devices.count', { count: 0 })).toBe('No devices');
    expect(t('devices.count', { count: 1 })).toBe('One device');
    expect(t('devices.count', { count: 3 })).toBe('3 devices');
  });

  it('answers the key (or defaultValue) for missing strings and keeps unknown placeholders', () => {
    expect(t('nope.missing')).toBe('nope.missing');
    expect(t('nope.missing', { defaultValue: 'Fallback' })).toBe('Fallback');
    expect(t('greeting')).toBe('Hello {{name}}');
    expect(t('members')).toBe('members'); // a section, not a string
  });

  it('merges bundles added later without overwriting existing keys', () => {
    i18n.addResourceBundle('en', 'translation', { releases: { title: 'Releases' }, members: { title: 'Changed' } }, true, false);
    expect(t('releases.title')).toBe('Releases');
    expect(t('members.title')).toBe('Members');
    expect(t('members.count', { count: 2 })).toBe('2 members');
  });

  it('gives components t and the language', () => {
    const { t: hookT, i18n: hookI18n } = useTranslation();
    expect(hookT('members.title')).toBe('Members');
    expect(hookI18n.language).toBe('en');
  });
});
