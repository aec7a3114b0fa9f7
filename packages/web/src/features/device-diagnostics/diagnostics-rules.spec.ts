import { ACTION_POLL_MS, diagnosticsFileName } from '@flotilla/model';
import { describe, expect, it } from 'vitest';
import {
  compareVersions,
  diagnosticsFileText,
  diagnoseStdout,
  errorBody,
  healthCheckOutput,
  osBelowHealthChecksMin,
  parseActionRun,
  pollInterval,
  supervisorStateProblem,
  tabOf,
  versionParts,
} from './diagnostics-rules';

describe('osBelowHealthChecksMin (spec 2 §5: warning below OS 2.11.0)', () => {
  it('warns below 2.11.0 and not from it on', () => {
    expect(osBelowHealthChecksMin('balenaOS 2.10.3+rev1')).toBe(true);
    expect(osBelowHealthChecksMin('2.9.99')).toBe(true);
    expect(osBelowHealthChecksMin('1.30.0')).toBe(true);
    expect(osBelowHealthChecksMin('balenaOS 2.11.0')).toBe(false);
    expect(osBelowHealthChecksMin('2.11')).toBe(false);
    expect(osBelowHealthChecksMin('6.0.13')).toBe(false);
    expect(osBelowHealthChecksMin('Debian GNU/Linux 12 (bookworm)')).toBe(false);
  });

  it('does not warn about an unknown version', () => {
    expect(osBelowHealthChecksMin(null)).toBe(false);
    expect(osBelowHealthChecksMin('')).toBe(false);
    expect(osBelowHealthChecksMin('unknown')).toBe(false);
  });

  it('reads and compares versions', () => {
    expect(versionParts('v14.1.2')).toEqual([14, 1, 2]);
    expect(versionParts('x')).toBeUndefined();
    expect(compareVersions([2, 11, 0], [2, 10, 9])).toBe(1);
    expect(compareVersions([2, 11, 0], [2, 11, 0])).toBe(0);
    expect(compareVersions([2, 1, 0], [2, 11, 0])).toBe(-1);
  });
});

describe('parseActionRun', () => {
  it('keeps an ActionRun and refuses anything else', () => {
    expect(parseActionRun({ status: 'idle', stdout: null, error: null, lastRun: null })).toEqual({ status: 'idle', stdout: null, error: null, lastRun: null });
    expect(parseActionRun({ status: 'done', stdout: 'x', error: 'e', lastRun: '2026-01-01T00:00:00.000Z' })?.status).toBe('done');
    expect(parseActionRun({ status: 'finished' })).toBeUndefined();
    expect(parseActionRun('<html>')).toBeUndefined();
    expect(parseActionRun(null)).toBeUndefined();
  });

  it('treats missing fields as null', () => {
    expect(parseActionRun({ status: 'in_progress' })).toEqual({ status: 'in_progress', stdout: null, error: null, lastRun: null });
  });
});

describe('healthCheckOutput', () => {
  it('reads checks from an object or a JSON string, dropping malformed rows', () => {
    const out = { checks: [{ name: 'check_engine', success: true, status: 'ok' }, { name: 1 }, { name: 'check_disk', success: false }], diagnose_version: '1.0' };
    expect(healthCheckOutput(out)).toEqual({
      checks: [
        { name: 'check_engine', success: true, status: 'ok' },
        { name: 'check_disk', success: false, status: '' },
      ],
      diagnose_version: '1.0',
    });
    expect(healthCheckOutput(JSON.stringify(out))?.checks).toHaveLength(2);
  });

  it('is undefined without checks', () => {
    expect(healthCheckOutput(null)).toBeUndefined();
    expect(healthCheckOutput('not json')).toBeUndefined();
    expect(healthCheckOutput({ checks: 'no' })).toBeUndefined();
  });
});

describe('pollInterval (spec 2 §9)', () => {
  it('polls health checks every 15 s', () => {
    expect(pollInterval('checks', undefined)).toBe(ACTION_POLL_MS.checks);
    expect(pollInterval('checks', { status: 'done', stdout: null, error: null, lastRun: null })).toBe(15_000);
  });

  it('polls diagnostics every 5 s while a run is in progress only', () => {
    expect(pollInterval('diagnose', { status: 'in_progress', stdout: null, error: null, lastRun: null })).toBe(5_000);
    expect(pollInterval('diagnose', { status: 'done', stdout: 'x', error: null, lastRun: null })).toBe(false);
    expect(pollInterval('diagnose', undefined)).toBe(false);
  });
});

describe('the diagnostics download (spec 2 §9)', () => {
  it('has STDOUT and STDERR sections', () => {
    const text = diagnosticsFileText({ stdout: 'engine: ok\n', error: 'warning: x' });
    expect(text).toMatch(/^STDOUT\n/);
    expect(text.indexOf('engine: ok')).toBeGreaterThan(text.indexOf('STDOUT'));
    expect(text.indexOf('STDERR')).toBeGreaterThan(text.indexOf('engine: ok'));
    expect(text.indexOf('warning: x')).toBeGreaterThan(text.indexOf('STDERR'));
    expect(diagnosticsFileText({ stdout: null, error: null })).toBe('STDOUT\n======\n\n\nSTDERR\n======\n\n');
  });

  it('is named {uuid}_diagnostics_{timestamp}.txt', () => {
    expect(diagnosticsFileName('abc123', new Date('2026-11-26T13:45:00.000Z'))).toBe('abc123_diagnostics_2026-11-26T13-45-00-000Z.txt');
  });

  it('shows non-text stdout as JSON', () => {
    expect(diagnoseStdout({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(diagnoseStdout(undefined)).toBe('');
  });
});

describe('supervisorStateProblem (spec 2 §8)', () => {
  it("words 'No online device(s) found' and an offline device as offline", () => {
    expect(supervisorStateProblem({ statusCode: 404, body: 'No online device(s) found' }, true)).toEqual({ kind: 'offline' });
    expect(supervisorStateProblem({ statusCode: 500, body: 'boom' }, false)).toEqual({ kind: 'offline' });
  });

  it('shows any other failure with its body', () => {
    expect(supervisorStateProblem({ statusCode: 502, body: 'Device unreachable' }, true)).toEqual({ kind: 'error', body: 'Device unreachable' });
    expect(supervisorStateProblem({ statusCode: 500, body: { error: 'x' } }, true)).toEqual({ kind: 'error', body: '{"error":"x"}' });
    expect(errorBody(new Error('network down'))).toBe('network down');
  });
});

describe('tabOf', () => {
  it('reads the tab from ?tab=, defaulting to health checks', () => {
    expect(tabOf('diagnostics')).toBe('diagnostics');
    expect(tabOf('supervisor-state')).toBe('supervisor-state');
    expect(tabOf(null)).toBe('health-checks');
    expect(tabOf('nonsense')).toBe('health-checks');
  });
});
