import { describe, expect, it } from 'vitest';
import {
  canStartSession,
  containerAcceptsShell,
  defaultTarget,
  hostOsSupportsShell,
  terminalTargetOptions,
  terminalUnavailableReason,
  type TerminalFacts,
} from './terminal-availability';

const facts = (over: Partial<TerminalFacts> = {}): TerminalFacts => ({
  isOnline: true,
  isLocalMode: false,
  osVersion: 'balenaOS 6.0.10',
  services: [
    { name: 'web', status: 'Running' },
    { name: 'worker', status: 'Idle' },
    { name: 'db', status: 'exited' },
    { name: 'cache', status: 'Downloading' },
  ],
  canSsh: true,
  canSshHost: true,
  ...over,
});

describe('containerAcceptsShell (spec 2 §5: running or idle containers only)', () => {
  it('accepts running and idle', () => {
    expect(containerAcceptsShell('Running')).toBe(true);
    expect(containerAcceptsShell('idle')).toBe(true);
    for (const s of ['exited', 'Stopped', 'Downloading', 'Installing', '', null]) expect(containerAcceptsShell(s), String(s)).toBe(false);
  });
});

describe('hostOsSupportsShell', () => {
  it('needs balenaOS 2 or newer, or any other known OS', () => {
    expect(hostOsSupportsShell('balenaOS 2.11.0')).toBe(true);
    expect(hostOsSupportsShell('Resin OS 1.26.0')).toBe(false);
    expect(hostOsSupportsShell('Linux 6.1.0-18-amd64')).toBe(true);
    expect(hostOsSupportsShell(null)).toBe(false);
    expect(hostOsSupportsShell(' ')).toBe(false);
  });
});

describe('terminalTargetOptions', () => {
  it('offers the host first, then services by name, each disabled with its reason', () => {
    expect(terminalTargetOptions(facts()).map((o) => [o.target, o.disabledReason])).toEqual([
      ['host', undefined],
      ['service:cache', 'container_not_running'],
      ['service:db', 'container_not_running'],
      ['service:web', undefined],
      ['service:worker', undefined],
    ]);
  });

  it('the host needs resin.device.ssh-host and a supporting OS', () => {
    expect(terminalTargetOptions(facts({ canSshHost: false }))[0]!.disabledReason).toBe('host_permission');
    expect(terminalTargetOptions(facts({ osVersion: 'Resin OS 1.8.0' }))[0]!.disabledReason).toBe('host_os_unsupported');
  });

  it('containers need resin.device.ssh and are unavailable in local mode', () => {
    const noSsh = terminalTargetOptions(facts({ canSsh: false }));
    expect(noSsh.filter((o) => o.service !== null).every((o) => o.disabledReason === 'service_permission')).toBe(true);
    const local = terminalTargetOptions(facts({ isLocalMode: true }));
    expect(local.filter((o) => o.service !== null).every((o) => o.disabledReason === 'local_mode')).toBe(true);
    expect(local[0]!.disabledReason).toBeUndefined();
  });

  it('defaults to the first usable service, else the host', () => {
    expect(defaultTarget(terminalTargetOptions(facts()))).toBe('service:web');
    expect(defaultTarget(terminalTargetOptions(facts({ isLocalMode: true })))).toBe('host');
    expect(defaultTarget(terminalTargetOptions(facts({ isLocalMode: true, canSshHost: false })))).toBeUndefined();
  });
});

describe('terminalUnavailableReason (spec 2 §5)', () => {
  it('is unavailable offline with no sessions, available offline with sessions open', () => {
    expect(terminalUnavailableReason(facts({ isOnline: false }), 0)).toBe('offline');
    expect(terminalUnavailableReason(facts({ isOnline: false }), 1)).toBeUndefined();
  });

  it('needs a right, and at least one usable target', () => {
    expect(terminalUnavailableReason(facts({ canSsh: false, canSshHost: false }), 0)).toBe('no_permission');
    expect(terminalUnavailableReason(facts({ canSshHost: false, services: [{ name: 'db', status: 'exited' }] }), 0)).toBe('no_targets');
    expect(terminalUnavailableReason(facts({ canSshHost: false, isLocalMode: true }), 0)).toBe('no_targets');
    expect(terminalUnavailableReason(facts(), 0)).toBeUndefined();
  });

  it('starts a new session only online, on an enabled target', () => {
    const [host, , , web] = terminalTargetOptions(facts());
    expect(canStartSession(facts(), web)).toBe(true);
    expect(canStartSession(facts({ isOnline: false }), host)).toBe(false);
    expect(canStartSession(facts(), terminalTargetOptions(facts())[1])).toBe(false);
    expect(canStartSession(facts(), undefined)).toBe(false);
  });
});
