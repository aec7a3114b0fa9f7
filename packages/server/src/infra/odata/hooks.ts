import type { Db } from '../db/db.js';
import type { DataContext } from './permissions.js';
import { resourceInfo } from './resources.js';

/**
 * Business rules run as hooks on (resource, method) inside the write's transaction.
 * See README.md in this folder for the order of events.
 */

export type WriteMethod = 'POST' | 'PATCH' | 'DELETE';

export interface HookArgs {
  /** The write's transaction: everything a hook does commits or rolls back with it. */
  db: Db;
  /** Who is writing. Use `asRoot(actor)` for writes the rule makes on the system's behalf. */
  actor: DataContext;
  resource: string;
  method: WriteMethod;
  /**
   * The validated request body (FKs as numbers). A `before` hook may change it: set
   * server-maintained fields (even `writable: 'never'` ones), translate accepted extra
   * fields, or throw an HttpError to reject the request. `{}` for DELETE.
   */
  body: Record<string, unknown>;
  /**
   * The rows concerned. PATCH/DELETE: the ids the caller may touch (computed with the
   * permission-filtered SELECT before `before` runs; possibly empty). POST: `[]` in
   * `before`, `[newId]` in `after`.
   */
  ids: readonly number[];
}

export interface Hook {
  before?(args: HookArgs): void | Promise<void>;
  after?(args: HookArgs): void | Promise<void>;
  /**
   * Body fields that are not model fields but that this hook's `before` understands and
   * removes (e.g. `username` in place of `user` on membership POSTs).
   */
  acceptFields?: readonly string[];
}

const registry = new Map<string, Hook[]>();
const NONE: readonly Hook[] = [];

/** Registers a hook; returns a function that unregisters it (for tests). PUT runs PATCH hooks. */
export function registerHook(resource: string, method: WriteMethod, hook: Hook): () => void {
  resourceInfo(resource); // fails fast on a misspelt resource
  const key = `${resource} ${method}`;
  const list = registry.get(key) ?? [];
  list.push(hook);
  registry.set(key, list);
  return () => {
    const current = registry.get(key);
    const i = current?.indexOf(hook) ?? -1;
    if (current && i >= 0) current.splice(i, 1);
  };
}

export function hooksFor(resource: string, method: WriteMethod): readonly Hook[] {
  return registry.get(`${resource} ${method}`) ?? NONE;
}

export function acceptedFields(hooks: readonly Hook[]): ReadonlySet<string> {
  const s = new Set<string>();
  for (const h of hooks) for (const f of h.acceptFields ?? []) s.add(f);
  return s;
}

export async function runHooks(hooks: readonly Hook[], phase: 'before' | 'after', args: HookArgs): Promise<void> {
  for (const h of hooks) await h[phase]?.(args);
}
