import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compareVersions, decideSelfUpdate, launcherNext, promoteStaged, RESTART_INTO_STAGED, verifyBuild, type LauncherState } from './self-update.js';
import { agentBuildOf, summarizeTarget } from './target-state.js';

const content = (version: string, code = 'run();') => Buffer.from(`#!/usr/bin/env node\n// flotilla-agent ${version}: test\n${code}\n`);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const buildOf = (version: string, body = content(version)) => ({ version, url: '/download/agent/releases/7', sha256: sha(body), size: body.length });

describe('decideSelfUpdate', () => {
  it('installs only a newer build, and not the one that failed before', () => {
    expect(compareVersions('14.10.0', '14.9.1')).toBe(1);
    expect(compareVersions('14.0.0', '14.0.0')).toBe(0);
    expect(decideSelfUpdate('14.0.0', null, null)).toEqual({ kind: 'none' });
    expect(decideSelfUpdate('14.0.0', buildOf('14.0.0'), null)).toEqual({ kind: 'none' });
    expect(decideSelfUpdate('14.9.0', buildOf('14.8.0'), null)).toEqual({ kind: 'none' });
    const b = buildOf('14.10.0');
    expect(decideSelfUpdate('14.9.0', b, null)).toEqual({ kind: 'install', build: b });
    const failed = { version: '14.10.0', sha256: b.sha256, reason: 'crashed', at: 1 };
    expect(decideSelfUpdate('14.9.0', b, failed)).toEqual({ kind: 'failed-before', build: b, failed });
    // Another build of that version (republished elsewhere) or a newer one is tried.
    expect(decideSelfUpdate('14.9.0', buildOf('14.10.0', content('14.10.0', 'other();')), failed).kind).toBe('install');
    expect(decideSelfUpdate('14.9.0', buildOf('14.11.0'), failed).kind).toBe('install');
  });
});

describe('verifyBuild', () => {
  it('accepts the build offered and refuses a checksum mismatch, a non-build and another version', () => {
    const body = content('15.0.0');
    expect(verifyBuild(body, buildOf('15.0.0'))).toBeNull();
    expect(verifyBuild(Buffer.concat([body, Buffer.from('x')]), buildOf('15.0.0'))).toMatch(/^checksum mismatch \(expected sha256 [0-9a-f]{64}, got [0-9a-f]{64}\)$/);
    const script = Buffer.from('#!/bin/sh\necho hi\n');
    expect(verifyBuild(script, { ...buildOf('15.0.0'), sha256: sha(script) })).toBe('the download is not a Flotilla agent build');
    const other = content('15.0.1');
    expect(verifyBuild(other, { ...buildOf('15.0.0'), sha256: sha(other) })).toBe('the build is version 15.0.1, not 15.0.0');
  });
});

describe('launcherNext', () => {
  const staged: LauncherState = { current: { version: '14.0.0', path: '/a/14.mjs' }, staged: { version: '15.0.0', path: '/a/15.mjs', sha256: 'ab' }, failed: null };

  it('starts the staged build on probation when a build exits to restart into it', () => {
    expect(launcherNext(staged, false, { kind: 'exit', code: RESTART_INTO_STAGED, signal: null }, 5)).toEqual({ kind: 'run', probation: true, state: staged });
  });

  it('rolls back a build on probation that exits or is not healthy in time, recording why', () => {
    const crashed = launcherNext(staged, true, { kind: 'exit', code: 3, signal: null }, 5);
    expect(crashed).toEqual({
      kind: 'run',
      probation: false,
      state: { current: staged.current, staged: null, failed: { version: '15.0.0', sha256: 'ab', reason: 'it exited during its start (code 3)', at: 5 }, failureReported: false },
    });
    const slow = launcherNext(staged, true, { kind: 'probation-timeout' }, 6);
    expect(slow.state.failed?.reason).toBe('it did not come up healthy within the probation window');
    expect(slow.state.current).toEqual(staged.current);
  });

  it('makes a healthy build current, and ends with the code of a build that stops on its own', () => {
    expect(promoteStaged(staged)).toEqual({ current: { version: '15.0.0', path: '/a/15.mjs' }, staged: null, failed: null });
    const running: LauncherState = { current: staged.current, staged: null, failed: null };
    expect(launcherNext(running, false, { kind: 'exit', code: 0, signal: null }, 1)).toEqual({ kind: 'exit', code: 0, state: running });
    expect(launcherNext(running, false, { kind: 'exit', code: 2, signal: null }, 1)).toEqual({ kind: 'exit', code: 2, state: running });
    // 75 without a staged build is an ordinary exit.
    expect(launcherNext(running, false, { kind: 'exit', code: RESTART_INTO_STAGED, signal: null }, 1).kind).toBe('exit');
  });
});

describe("the target's agent build", () => {
  it('is read from the supervisor block release, which is not taken for the fleet app', () => {
    const b = buildOf('15.0.0');
    const body = {
      u1: {
        name: 'dev',
        config: {},
        apps: {
          sup: { id: 3, name: 'armv7hf-supervisor', class: 'block', releases: { c1: { id: 9, services: {}, agent_build: b } } },
          app: { id: 12, name: 'MyFleet', class: 'fleet', releases: { c2: { id: 40, services: {} } } },
        },
      },
    };
    expect(agentBuildOf(body.u1.apps)).toEqual(b);
    const summary = summarizeTarget(body, 'u1', null);
    expect(summary.appId).toBe(12);
    expect(summary.agentBuild).toEqual(b);
    expect(agentBuildOf({ sup: { class: 'block', releases: { c: { agent_build: { ...b, sha256: 'short' } } } } })).toBeNull();
    expect(agentBuildOf({ sup: { class: 'block', releases: { c: { agent_build: { ...b, url: 'http://elsewhere/x' } } } } })).toBeNull();
  });
});
