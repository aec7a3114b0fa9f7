import { tagKeyProblem } from '@flotilla/model';
import { z } from 'zod/mini';

/**
 * The tag manager's staged edits (balena's tag-manager pattern, spec 2 §2): rows are added,
 * changed or marked deleted locally and saved together. Pure: unit-tested beside this file.
 */
export interface TagRow {
  /** Stable row id for React keys. */
  id: number;
  /** The saved tag's id and key, for rows that exist on the server. */
  savedId?: number;
  savedKey?: string;
  savedValue?: string;
  key: string;
  value: string;
  deleted: boolean;
}

export type TagChange =
  | { kind: 'set'; key: string; value: string }
  | { kind: 'update'; id: number; key: string; value: string }
  | { kind: 'remove'; key: string };

export function rowsFromTags(tags: readonly { id?: number; tag_key: string; value: string }[]): TagRow[] {
  return tags.map((t, i) => ({ id: i, savedId: t.id, savedKey: t.tag_key, savedValue: t.value, key: t.tag_key, value: t.value, deleted: false }));
}

export type RowState = 'unchanged' | 'added' | 'updated' | 'deleted';

export function rowState(row: TagRow): RowState {
  if (row.deleted) return 'deleted';
  if (row.savedKey === undefined) return 'added';
  return row.key !== row.savedKey || row.value !== row.savedValue ? 'updated' : 'unchanged';
}

/** A row's key problem as the API words it (model tagKeyProblem), and duplicates. */
export function rowKeyProblem(row: TagRow, rows: readonly TagRow[]): string | undefined {
  if (row.deleted) return undefined;
  const problem = tagKeyProblem(row.key);
  if (problem) return problem;
  if (rows.some((other) => other !== row && !other.deleted && other.key === row.key)) return 'A tag with this key already exists.';
  return undefined;
}

/**
 * The writes that save the staged rows: removals first (a renamed key frees its old name),
 * then sets. A renamed key is a removal of the old key and a set of the new one; a new value
 * for a saved key is an update of that row by id (no create-then-conflict round trip).
 */
export function stagedChanges(rows: readonly TagRow[]): TagChange[] {
  const removes: TagChange[] = [];
  const sets: TagChange[] = [];
  const kept = new Set(rows.filter((r) => !r.deleted).map((r) => r.key));
  for (const row of rows) {
    const state = rowState(row);
    if (state === 'unchanged') continue;
    if (row.savedKey !== undefined && (row.deleted || row.key !== row.savedKey) && !kept.has(row.savedKey)) removes.push({ kind: 'remove', key: row.savedKey });
    if (row.deleted) continue;
    if (row.savedId !== undefined && row.key === row.savedKey) sets.push({ kind: 'update', id: row.savedId, key: row.key, value: row.value });
    else sets.push({ kind: 'set', key: row.key, value: row.value });
  }
  return [...removes, ...sets];
}

/** The tag manager's form: its staged rows (react-hook-form `useFieldArray` over `rows`). */
export interface TagForm {
  rows: TagRow[];
}

const tagRow = z.object({
  id: z.number(),
  savedId: z.optional(z.number()),
  savedKey: z.optional(z.string()),
  savedValue: z.optional(z.string()),
  key: z.string(),
  value: z.string(),
  deleted: z.boolean(),
});

/**
 * The form's rules: each kept row's key follows the model's tag rules (`tagKeyProblem`, the
 * API's own text) and is unique among the kept rows; the problem is said under that key.
 */
export const tagFormSchema: z.ZodMiniType<TagForm, TagForm> = z.object({ rows: z.array(tagRow) }).check(
  z.superRefine(({ rows }, ctx) => {
    rows.forEach((row, index) => {
      const problem = rowKeyProblem(row, rows);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem, path: ['rows', index, 'key'], input: row.key });
    });
  }),
);

/** Each row's key problem by index, as the schema finds it (the dialog shows them as they type). */
export function rowKeyProblems(form: TagForm): (string | undefined)[] {
  const problems: (string | undefined)[] = form.rows.map(() => undefined);
  const result = tagFormSchema.safeParse(form);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const [field, index, name] = issue.path;
      if (field === 'rows' && typeof index === 'number' && name === 'key') problems[index] ??= issue.message;
    }
  }
  return problems;
}
