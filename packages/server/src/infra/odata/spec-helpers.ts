import { compileGet } from './query.js';
import type { Access } from './permissions.js';
import { parseUrl } from './url.js';

const SIZE_CHECK = /^SELECT CASE WHEN octet_length\(r\.d\) <= \d+ THEN r\.d END AS d, octet_length\(r\.d\) AS n FROM \((.*)\) AS r$/s;

/**
 * The SQL and parameters a GET compiles to (for specs); a collection's SQL without the size
 * check that wraps every collection (query.spec.ts checks that once).
 */
export function compile(url: string, access: Access = 'root'): { sql: string; params: readonly unknown[]; actorIndex: number } {
  const s = compileGet(parseUrl(url), access);
  return { sql: s.sql.replace(SIZE_CHECK, '$1'), params: s.params, actorIndex: s.actorIndex };
}

/** The WHERE clause of the top-level page (what $filter compiled to). */
export function where(url: string, access: Access = 'root'): string {
  const { sql } = compile(url, access);
  const start = sql.indexOf(' WHERE ');
  if (start < 0) throw new Error(`no WHERE in ${sql}`);
  const end = sql.lastIndexOf(') AS q');
  // Without $top a level is a page of DEFAULT_PAGE_SIZE rows.
  return sql.slice(start + 7, end).replace(/ LIMIT \d+$/, '');
}
