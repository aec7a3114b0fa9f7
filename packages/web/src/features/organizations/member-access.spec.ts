import { describe, expect, it } from 'vitest';
import { effectiveAccess, type AccessItem } from './member-access';

const apps = [
  { id: 1, app_name: 'beta', is_of__class: 'fleet' },
  { id: 2, app_name: 'alpha', is_of__class: 'fleet' },
  { id: 3, app_name: 'kiosk', is_of__class: 'block' },
];
const grant: AccessItem = { key: 'u9', applicationId: 1, name: 'beta', appClass: 'fleet', role: 'observer', via: undefined };

describe('effectiveAccess', () => {
  it('gives an organization administrator administrator access to every application of the organization', () => {
    expect(effectiveAccess('administrator', [grant], apps).map((a) => [a.name, a.role, a.appClass])).toEqual([
      ['alpha', 'administrator', 'fleet'],
      ['beta', 'administrator', 'fleet'],
      ['kiosk', 'administrator', 'block'],
    ]);
  });

  it('gives a member only their direct and team grants', () => {
    expect(effectiveAccess('member', [grant], apps)).toEqual([grant]);
    expect(effectiveAccess('member', [], apps)).toEqual([]);
  });
});
