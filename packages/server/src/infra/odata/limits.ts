/**
 * Bounds of every data-API response (issue 11; docs/decisions.md "Issue 11 — response and
 * database bounds"). Each level of a GET (the collection and every `$expand`) returns at most
 * a page of rows, the JSON text is capped before it leaves PostgreSQL, and the nesting that
 * multiplies work ($expand levels, lambdas inside lambdas) is limited.
 */

/** Rows of a level without `$top` (the collection and each `$expand`). */
export const DEFAULT_PAGE_SIZE = 1_000;
/** The largest `$top` of any level; more is a 400. */
export const MAX_PAGE_SIZE = 10_000;
/** A GET's JSON above this many bytes is a 400 (the text is measured in PostgreSQL and not sent). */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** `$expand` levels (`a($expand=b($expand=c))` is 3). */
export const MAX_EXPAND_DEPTH = 5;
/** `any`/`all` lambdas and `nav/$count($filter=…)` nested inside one another in a request's `$filter`. */
export const MAX_LAMBDA_DEPTH = 3;
