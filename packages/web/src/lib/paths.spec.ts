import { matchPath } from 'react-router';
import { describe, expect, it } from 'vitest';
import { classSegment, paths, routePatterns } from './paths';

describe('paths', () => {
  it('builds the spec\'s application paths by class; an unknown class is a fleet', () => {
    expect(paths.applications()).toBe('/fleets');
    expect(paths.applications('block')).toBe('/blocks');
    expect(paths.application('app', 7)).toBe('/apps/7');
    expect(paths.application('fleet', 7, 'settings')).toBe('/fleets/7/settings');
    expect(classSegment('something-else')).toBe('fleets');
  });

  it('builds organization, member, team, device and preferences paths', () => {
    expect(paths.organization(3)).toBe('/orgs/3');
    expect(paths.organization(3, 'members')).toBe('/orgs/3/members');
    expect(paths.organizationMember(3, 12)).toBe('/orgs/3/members/12');
    expect(paths.organizationTeam(3, 4, 'fleets')).toBe('/orgs/3/teams/4/fleets');
    expect(paths.device('abc123', 'settings')).toBe('/devices/abc123/settings');
    expect(paths.preferences()).toBe('/preferences');
    expect(paths.preferences('details')).toBe('/preferences');
    expect(paths.preferences('sshkeys')).toBe('/preferences/sshkeys');
    expect(paths.identityProvider()).toBe('/identity-provider');
    expect(paths.identityProvider(4)).toBe('/identity-provider/4');
  });

  it('opens the device table filtered by the release a device runs (spec 2 §2)', () => {
    expect(paths.fleetDevices(5, { is_running__release: 9 })).toBe('/fleets/5/devices?is_running__release=9');
  });

  it('escapes path segments', () => {
    expect(paths.device('a/b')).toBe('/devices/a%2Fb');
  });

  it('answers, for every route, a path its pattern matches', () => {
    const samples: Record<keyof typeof paths, string> = {
      home: paths.home(),
      login: paths.login(),
      loginTwoFactor: paths.loginTwoFactor(),
      loginCli: paths.loginCli(),
      loginOAuth: paths.loginOAuth('cli-client'),
      signup: paths.signup(),
      signupProfile: paths.signupProfile(),
      passwordReset: paths.passwordReset(),
      passwordResetSuccess: paths.passwordResetSuccess(),
      verifyEmailPending: paths.verifyEmailPending(),
      applications: paths.applications('app'),
      application: paths.application('block', 2, 'releases'),
      fleetDevices: paths.fleetDevices(2).split('?')[0]!,
      release: paths.release('fleet', 2, 3, 'summary'),
      device: paths.device('uuid', 'location'),
      organizations: paths.organizations(),
      organization: paths.organization(1, 'billing'),
      organizationMember: paths.organizationMember(1, 2, 'teams'),
      organizationTeam: paths.organizationTeam(1, 2),
      preferences: paths.preferences('appearance'),
      admin: paths.admin(),
      support: paths.support(),
      zendeskLogin: paths.zendeskLogin('https://help.example.com/hc').split('?')[0]!,
      identityProvider: paths.identityProvider(4),
    };
    for (const [name, path] of Object.entries(samples)) {
      expect(matchPath(routePatterns[name as keyof typeof paths], path), `${name}: ${path}`).not.toBeNull();
    }
  });
});
