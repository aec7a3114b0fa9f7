import { describe, expect, it } from 'vitest';
import { checksFrom, cutText, outcomeOf } from './action-runs.js';

describe("how a device's answer ends a run", () => {
  const checks = { checks: [{ name: 'check_memory', success: false, status: 'Low memory' }], diagnose_version: '1.0.0' };

  it('stores checks and diagnose answers; diagnose stderr is the error of a done run', () => {
    expect(outcomeOf('checks', { status: 200, body: { Data: checks, Error: null } }, 60_000)).toEqual({ status: 'done', stdout: checks, error: null });
    expect(outcomeOf('diagnose', { status: 200, body: { Data: { stdout: 'o', stderr: 'e' }, Error: null } }, 60_000)).toEqual({ status: 'done', stdout: 'o', error: 'e' });
    expect(outcomeOf('diagnose', { status: 200, body: { Data: { stdout: 'o', stderr: '' }, Error: null } }, 60_000).error).toBeNull();
  });

  it('says what to do on a timeout, a dropped link, an unreachable device, an old agent and a refusal', () => {
    expect(outcomeOf('checks', { status: 504, body: 'The device did not answer' }, 60_000).error).toBe(
      'The device did not answer within 60 s. Check that it is online and its agent is running, then run it again',
    );
    expect(outcomeOf('checks', { status: 502, body: 'The device disconnected' }, 1).error).toBe('The device disconnected during the run. Run it again once it is back online');
    expect(outcomeOf('checks', { status: 502, body: 'Connection is closed.' }, 1).error).toBe('The run could not reach the device (Connection is closed.). Run it again');
    expect(outcomeOf('diagnose', { status: 501, body: { Data: null, Error: 'x' } }, 1).error).toBe("This device's agent cannot run diagnostics. Update the agent");
    expect(outcomeOf('diagnose', { status: 500, body: { Data: null, Error: 'diagnose failed on the device: boom' } }, 1)).toEqual({
      status: 'error',
      stdout: null,
      error: 'The device could not run it (HTTP 500): diagnose failed on the device: boom',
    });
  });

  it('refuses answers in an unknown shape and bounds the fields of checks', () => {
    expect(outcomeOf('checks', { status: 200, body: { Data: { checks: [{ name: 1 }] }, Error: null } }, 1).status).toBe('error');
    expect(outcomeOf('diagnose', { status: 200, body: { Data: { stdout: 5 }, Error: null } }, 1).status).toBe('error');
    expect(outcomeOf('checks', { status: 200, body: 'OK' }, 1).status).toBe('error');
    const many = checksFrom({ checks: Array.from({ length: 80 }, () => ({ name: 'n'.repeat(300), success: true, status: 's'.repeat(3000) })), diagnose_version: 'v'.repeat(99) })!;
    expect([many.checks.length, many.checks[0]!.name.length, many.checks[0]!.status.length, many.diagnose_version.length]).toEqual([50, 100, 1000, 50]);
  });

  it('cuts text with a note', () => {
    const cut = cutText('x'.repeat(500), 100);
    expect(cut.length).toBeLessThanOrEqual(100);
    expect(cut).toMatch(/cut by the server: \d+ more characters not stored/);
  });
});
