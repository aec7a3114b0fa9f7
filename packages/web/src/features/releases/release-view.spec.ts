import { describe, expect, it } from 'vitest';
import { releaseSearchFilter } from './release-search';
import { blocksValidation, buildDuration, completion, formatBytes, prettyComposition, shortCommit, showsImageStatusIcons, shownStatus } from './release-view';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const minutesAgo = (m: number) => new Date(NOW - m * 60_000).toISOString();

describe('release view rules', () => {
  it('shows a running release idle for over 120 minutes as timeout', () => {
    expect(shownStatus({ status: 'running', update_timestamp: minutesAgo(121) }, NOW)).toBe('timeout');
    expect(shownStatus({ status: 'running', update_timestamp: minutesAgo(119) }, NOW)).toBe('running');
    expect(shownStatus({ status: 'success', update_timestamp: minutesAgo(500) }, NOW)).toBe('success');
  });

  it('blocks validation for failed, error, interrupted, cancelled and timeout only', () => {
    expect((['failed', 'error', 'interrupted', 'cancelled', 'timeout'] as const).every((s) => blocksValidation(s))).toBe(true);
    expect((['success', 'running', 'local'] as const).some((s) => blocksValidation(s))).toBe(false);
  });

  it('hides image status icons for running, cancelled and local releases', () => {
    expect(showsImageStatusIcons('running')).toBe(false);
    expect(showsImageStatusIcons('cancelled')).toBe(false);
    expect(showsImageStatusIcons('local')).toBe(false);
    expect(showsImageStatusIcons('failed')).toBe(true);
  });

  it('says Build failed or build cancelled in the completed field', () => {
    expect(completion('failed', null)).toEqual({ kind: 'failed' });
    expect(completion('error', '2026-01-01T00:00:00Z')).toEqual({ kind: 'failed' });
    expect(completion('cancelled', null)).toEqual({ kind: 'cancelled' });
    expect(completion('success', '2026-01-01T00:00:00Z')).toEqual({ kind: 'at', at: '2026-01-01T00:00:00Z' });
    expect(completion('running', null)).toEqual({ kind: 'pending' });
  });

  it('pretty-prints an object composition and refuses anything else', () => {
    expect(prettyComposition({ services: { main: {} } })).toBe('{\n  "services": {\n    "main": {}\n  }\n}');
    expect(prettyComposition('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyComposition(null)).toBeUndefined();
    expect(prettyComposition('not json')).toBeUndefined();
    expect(prettyComposition([1, 2])).toBeUndefined();
    expect(prettyComposition(42)).toBeUndefined();
  });

  it('formats the build duration from start to end', () => {
    expect(buildDuration('2026-01-01T00:00:00Z', '2026-01-01T00:00:42Z')).toBe('42s');
    expect(buildDuration('2026-01-01T00:00:00Z', '2026-01-01T00:02:05Z')).toBe('2m 5s');
    expect(buildDuration('2026-01-01T00:00:00Z', '2026-01-01T01:00:01Z')).toBe('1h 0m 1s');
    expect(buildDuration('2026-01-01T00:00:00Z', null)).toBeUndefined();
  });

  it('formats sizes and short commits', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes('73400320')).toBe('70.0 MB');
    expect(formatBytes(null)).toBeUndefined();
    expect(shortCommit('0123456789abcdef')).toBe('0123456');
  });
});

describe('release search filter', () => {
  it('matches nothing extra for an empty search', () => {
    expect(releaseSearchFilter('   ')).toBeUndefined();
  });

  it('searches versions and tag keys and values, case-insensitively', () => {
    const f = JSON.stringify(releaseSearchFilter(' V1.2 '));
    expect(f).toContain('"raw_version"');
    expect(f).toContain('"semver"');
    expect(f).toContain('["rt","tag_key"]');
    expect(f).toContain('["rt","value"]');
    expect(f).toContain('"v1.2"');
  });

  it('narrows key=value to one tag', () => {
    expect(releaseSearchFilter('Env=Prod')).toEqual({
      release_tag: {
        $any: {
          $alias: 'rt',
          $expr: {
            $and: [
              { $contains: [{ $tolower: { $: ['rt', 'tag_key'] } }, 'env'] },
              { $contains: [{ $tolower: { $: ['rt', 'value'] } }, 'prod'] },
            ],
          },
        },
      },
    });
  });
});
