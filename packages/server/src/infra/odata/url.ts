import odataParser, { type ODataBinds, type ODataOptions, type ODataQuery } from '@balena/odata-parser';
import { BadRequestError } from '../errors.js';

/**
 * Turns a data-API URL (relative to `/v7`, e.g. `/device(uuid='…')?$select=id`) into the
 * parser's tree plus its binds. Every literal in the URL becomes a bind, so values reach
 * SQL only as parameters.
 */

export interface ParsedUrl {
  tree: ODataQuery;
  binds: ODataBinds;
  options: ODataOptions;
}

// Characters that are structure, not data, when they appear outside a quoted string.
// Clients differ in whether they percent-encode them (pinejs keeps `( ) , $ / = ;` raw,
// browsers and curl users may not); the parser wants them raw. `&` is not among them: an
// encoded `&` outside a string would change the option boundaries.
const STRUCTURAL = new Set(['(', ')', ',', '$', '/', '=', ';', ':', '@', '*']);

function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 70) return code - 55;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

/** The character `%XX` at `i` stands for, if it is a well-formed escape. */
function hexAt(s: string, i: number): string | undefined {
  if (i + 2 >= s.length) return undefined;
  const hi = hexDigit(s.charCodeAt(i + 1));
  const lo = hexDigit(s.charCodeAt(i + 2));
  return hi < 0 || lo < 0 ? undefined : String.fromCharCode(hi * 16 + lo);
}

function apostropheLength(s: string, i: number): number {
  if (s[i] === "'") return 1;
  if (s[i] === '%' && s[i + 1] === '2' && s[i + 2] === '7') return 3;
  return 0;
}

/**
 * One pass over the URL that (a) decodes structural characters outside strings and
 * (b) splits the query on `&` outside strings. Inside a string everything is left to the
 * parser, which handles `''`, `%27%27` and percent-decoding of the content itself.
 */
function scan(url: string): { path: string; query: string[] } {
  let out = '';
  let inString = false;
  let stringStart = 0;
  let path: string | undefined;
  const query: string[] = [];
  for (let i = 0; i < url.length; ) {
    const apos = apostropheLength(url, i);
    if (apos > 0) {
      if (inString) {
        const next = apostropheLength(url, i + apos);
        if (next > 0) {
          // A doubled apostrophe is an apostrophe inside the string.
          out += url.slice(i, i + apos + next);
          i += apos + next;
          continue;
        }
      }
      inString = !inString;
      stringStart = i;
      out += url.slice(i, i + apos);
      i += apos;
      continue;
    }
    const ch = url[i]!;
    if (!inString) {
      if (ch === '?' && path === undefined) {
        path = out;
        out = '';
        i++;
        continue;
      }
      if (ch === '&' && path !== undefined) {
        query.push(out);
        out = '';
        i++;
        continue;
      }
      if (ch === '%') {
        const decoded = hexAt(url, i);
        if (decoded !== undefined && STRUCTURAL.has(decoded)) {
          out += decoded;
          i += 3;
          continue;
        }
      }
    }
    out += ch;
    i++;
  }
  if (inString) throw new BadRequestError(`Malformed OData URL: unterminated string literal (at character ${stringStart + 1})`);
  if (path === undefined) return { path: out, query };
  query.push(out);
  return { path, query };
}

/**
 * The query options the data API understands. Other parameters (`apikey=…` from the SDK,
 * cache busters) belong to other layers and are dropped before parsing.
 */
function isODataOption(param: string): boolean {
  return param.startsWith('$') || param.startsWith('@');
}

export function parseUrl(url: string): ParsedUrl {
  const { path, query } = scan(url);
  const options = query.filter(isODataOption);
  const normalized = options.length > 0 ? `${path}?${options.join('&')}` : path;
  let parsed: { tree: ODataQuery; binds: ODataBinds };
  try {
    parsed = odataParser.parse(normalized, { startRule: 'ProcessRule', rule: 'OData' });
  } catch (err) {
    throw new BadRequestError(`Malformed OData URL: ${describeParseError(err)}`);
  }
  const tree = parsed.tree;
  if (typeof tree.resource !== 'string' || tree.resource.startsWith('$')) {
    throw new BadRequestError(`Unsupported OData URL: ${path}`);
  }
  if (tree.property !== undefined || tree.link !== undefined) {
    throw new BadRequestError('Navigation paths in the resource path are not supported; use $expand or $filter');
  }
  return { tree, binds: parsed.binds, options: tree.options ?? {} };
}

/** Parses a permission condition (an OData $filter text) into a tree and binds. */
export function parseFilter(text: string): { tree: unknown; binds: ODataBinds } {
  try {
    return odataParser.parse(text, { startRule: 'ProcessRule', rule: 'FilterByExpression' });
  } catch (err) {
    throw new Error(`Invalid permission condition '${text}': ${describeParseError(err)}`);
  }
}

function describeParseError(err: unknown): string {
  if (err instanceof URIError) return 'invalid percent-encoding';
  const e = err as { message?: string; location?: { start?: { offset?: number } } };
  const at = e.location?.start?.offset;
  const message = e.message ?? String(err);
  return at === undefined ? message : `${message} (at character ${at + 1})`;
}
