import { conditionsFor, model, type Action } from '@flotilla/model';
import { UnauthorizedError } from '../errors.js';
import { compileTrusted } from './filter.js';
import { resourceInfo } from './resources.js';
import { ALIAS_MARK, Aliases, conditionAt } from './sql.js';

export { conditionAt };

/**
 * Permissions compiled into SQL. A role's condition texts (`resin.x.read?<filter>`) are
 * parsed and compiled once per (permission set, resource, action) into a SQL fragment
 * whose row alias is a placeholder; the query compiler pastes it wherever that resource
 * is read.
 */

/** The caller: an actor id (null = anonymous) and the permission strings of their roles. */
export interface DataContext {
  actorId: number | null;
  permissions: readonly string[];
  /** The API key the caller authenticated with, if any (audit trails name it). */
  apiKeyId?: number;
}

/** Every permission on every resource; for hooks and services that act as the system. */
export const ROOT_PERMISSIONS: readonly string[] = Object.keys(model).map((r) => `resin.${r}.all`);

/** The same actor, acting with full data access (for rules that say so). */
export function asRoot(ctx: DataContext): DataContext {
  return { actorId: ctx.actorId, permissions: ROOT_PERMISSIONS };
}

/**
 * `true`: unconditional; `false`: never; a string: a SQL condition over the row at
 * ALIAS_MARK (see `conditionAt`).
 */
export type CompiledCondition = boolean | string;

// Auth hands out the same array object for the same role set, so the key costs one
// WeakMap lookup per request; equal arrays built separately still share one key.
const keyByArray = new WeakMap<readonly string[], string>();
const keyByText = new Map<string, string>();
let nextKey = 0;

/** A short key identifying a permission set (for caches). */
export function permissionsKey(permissions: readonly string[]): string {
  let key = keyByArray.get(permissions);
  if (key !== undefined) return key;
  const text = permissions.join('\n');
  key = keyByText.get(text);
  if (key === undefined) {
    if (keyByText.size >= 10_000) keyByText.clear();
    key = `p${nextKey++}`;
    keyByText.set(text, key);
  }
  keyByArray.set(permissions, key);
  return key;
}

const compiled = new Map<string, CompiledCondition>();

/**
 * The condition under which `permissions` allow `action` on `resource`, compiled. A
 * create condition, and any condition compiled `forWrittenRow`, contains NEW_ROW_MARK
 * (see CompileEnv.newRowOf): checks of a just-written row must not let it vouch for itself.
 */
export function permissionCondition(
  permissions: readonly string[],
  resource: string,
  action: Action,
  forWrittenRow = action === 'create',
): CompiledCondition {
  resource = resourceInfo(resource).name; // a synonym has its resource's permissions
  const cacheKey = `${permissionsKey(permissions)}\u0000${resource}\u0000${action}\u0000${forWrittenRow}`;
  const hit = compiled.get(cacheKey);
  if (hit !== undefined) return hit;
  const texts = conditionsFor(permissions, resource, action);
  let result: CompiledCondition;
  if (texts === true || texts === false) {
    result = texts;
  } else {
    const aliases = new Aliases(ALIAS_MARK);
    const parts = texts.map((text) => compileTrusted(resource, text, aliases, forWrittenRow));
    result = parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`;
  }
  if (compiled.size >= 10_000) compiled.clear();
  compiled.set(cacheKey, result);
  return result;
}

/**
 * Who decides what a statement may touch: a permission set, or `'root'` (no checks:
 * re-reading a row just written, system work).
 */
export type Access = readonly string[] | 'root';

/** SQL to AND in for reading `resource` at `alias` through a navigation: '' | 'FALSE' | condition. */
export function navigationCondition(access: Access, resource: string, alias: string): string {
  if (access === 'root') return '';
  const c = permissionCondition(access, resource, 'read');
  if (c === true) return '';
  if (c === false) return 'FALSE';
  return conditionAt(c, alias);
}

/**
 * SQL under which the caller may read the private fields of the row of `resource` at
 * `alias`: '' | 'FALSE' | condition (`resin.<resource>.read-private`).
 */
export function privateFieldCondition(access: Access, resource: string, alias: string): string {
  if (access === 'root') return '';
  const c = permissionCondition(access, resource, 'read-private');
  if (c === true) return '';
  if (c === false) return 'FALSE';
  return conditionAt(c, alias);
}

/**
 * The condition for the resource a request is about: none at all is a 401 (anonymous
 * GET /v7/user must be 401, a denied write is 401 'Unauthorized').
 */
export function rootCondition(access: Access, resource: string, action: Action, alias: string, forWrittenRow?: boolean): string | undefined {
  if (access === 'root') return undefined;
  const c = permissionCondition(access, resource, action, forWrittenRow);
  if (c === false) throw new UnauthorizedError();
  return c === true ? undefined : conditionAt(c, alias);
}
