import { describe, expect, it } from 'vitest';
import { rowKeyProblem, rowKeyProblems, rowsFromTags, rowState, stagedChanges, tagFormSchema, type TagRow } from './tag-staging';

const saved = rowsFromTags([
  { id: 11, tag_key: 'floor', value: '1' },
  { id: 12, tag_key: 'room', value: 'kitchen' },
]);

describe('tag staging', () => {
  it('has nothing to save while unchanged', () => {
    expect(saved.map(rowState)).toEqual(['unchanged', 'unchanged']);
    expect(stagedChanges(saved)).toEqual([]);
  });

  it('saves additions, value edits, renames and deletions, removals first', () => {
    const rows: TagRow[] = [
      { ...saved[0]!, deleted: true },
      { ...saved[1]!, key: 'area' },
      { id: 9, key: 'rack', value: '3', deleted: false },
    ];
    expect(rows.map(rowState)).toEqual(['deleted', 'updated', 'added']);
    expect(stagedChanges(rows)).toEqual([
      { kind: 'remove', key: 'floor' },
      { kind: 'remove', key: 'room' },
      { kind: 'set', key: 'area', value: 'kitchen' },
      { kind: 'set', key: 'rack', value: '3' },
    ]);
  });

  it('a new value for a saved key updates that tag by id', () => {
    expect(stagedChanges([saved[0]!, { ...saved[1]!, value: 'pantry' }])).toEqual([{ kind: 'update', id: 12, key: 'room', value: 'pantry' }]);
  });

  it('a deleted key added again is a set, not a removal', () => {
    const rows: TagRow[] = [{ ...saved[0]!, deleted: true }, { id: 9, key: 'floor', value: '2', deleted: false }];
    expect(stagedChanges(rows)).toEqual([{ kind: 'set', key: 'floor', value: '2' }]);
  });

  it('mirrors the API key rules and refuses duplicates', () => {
    const rows: TagRow[] = [...saved, { id: 9, key: 'room', value: 'x', deleted: false }, { id: 10, key: 'io.balena.x', value: '', deleted: false }];
    expect(rowKeyProblem(rows[2]!, rows)).toBe('A tag with this key already exists.');
    expect(rowKeyProblem(rows[3]!, rows)).toBe('Tag keys beginning with io.balena. are reserved.');
    expect(rowKeyProblem({ id: 11, key: 'my room', value: '', deleted: false }, rows)).toBe('Tag keys cannot contain whitespace.');
    expect(rowKeyProblem({ ...rows[2]!, deleted: true }, rows)).toBeUndefined();
  });
});

describe('tag form schema', () => {
  it('says each kept row its key problem with the model text, and passes a clean form', () => {
    const rows: TagRow[] = [
      ...saved,
      { id: 9, key: 'room', value: 'x', deleted: false },
      { id: 10, key: 'io.resin.x', value: '', deleted: false },
      { id: 11, key: '', value: '', deleted: false },
      { id: 12, key: 'my room', value: '', deleted: true },
    ];
    expect(rowKeyProblems({ rows })).toEqual([
      undefined,
      'A tag with this key already exists.',
      'A tag with this key already exists.',
      'Tag keys beginning with io.resin. are reserved.',
      'Tag key is required.',
      undefined,
    ]);
    expect(tagFormSchema.safeParse({ rows: saved }).success).toBe(true);
    expect(tagFormSchema.safeParse({ rows }).success).toBe(false);
  });
});
