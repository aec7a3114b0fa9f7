import { compileGet } from './query.js';
import type { Access } from './permissions.js';
import { parseUrl } from './url.js';

/** The SQL and parameters a GET compiles to (for specs). */
export function compile(url: string, access: Access = 'root'): { sql: string; params: readonly unknown[]; actorIndex: number } {
  const s = compileGet(parseUrl(url), access);
  return { sql: s.sql, params: s.params, actorIndex: s.actorIndex };
}

/** The WHERE clause of the top-level page (what $filter compiled to). */
export function where(url: string, access: Access = 'root'): string {
  const { sql } = compile(url, access);
  const start = sql.indexOf(' WHERE ');
  if (start < 0) throw new Error(`no WHERE in ${sql}`);
  const end = sql.lastIndexOf(') AS q');
  return sql.slice(start + 7, end);
}
