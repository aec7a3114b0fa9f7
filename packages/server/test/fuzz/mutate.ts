import type { Rng } from './prng.js';
import type { FuzzRequest } from './request.js';
import { EDGE_NUMBERS } from './v7-grammar.js';

/**
 * Random mutation of a generated request (docs/fuzzing.md): truncation, byte flips,
 * percent-encoding garbage, duplicated parameters, unicode, very long parts, numbers at
 * their limits, unbalanced structure, swapped methods and content types, broken bodies.
 * Each mutation appends its name to `req.mutations` so a failure says what was done.
 */

const PERCENT_GARBAGE = ['%', '%G1', '%C3', '%FF', '%00', '%uD800', '%ED%A0%80', '%F0%9F', '%25', '%2', '%%', '%E2%80%AE', '%27', '%28', '%29', '%2F'];
const UNICODE = ['😀', '\uD800', '\uDFFF', '\u0000', '\u202E', 'ä', '日本', '\uFEFF', '\u00A0', '\n', '\r\n', '\t', ' ', '"', '<', '\\'];
const STRUCTURE = ['(', ')', "'", ',', '/', '=', '$', '&', '?', '#', ';', ':', '@', '*', '[', ']', '{', '}'];

function at(rng: Rng, s: string): number {
  return rng.int(0, s.length);
}

function insert(rng: Rng, s: string, piece: string): string {
  const i = at(rng, s);
  return s.slice(0, i) + piece + s.slice(i);
}

const stringMutations: [number, string, (rng: Rng, s: string) => string][] = [
  [3, 'truncate', (rng, s) => s.slice(0, at(rng, s))],
  [3, 'flip', (rng, s) => {
    if (s.length === 0) return s;
    const i = rng.int(0, s.length - 1);
    const c = rng.chance(0.7) ? String.fromCharCode(rng.int(0x20, 0x7e)) : String.fromCharCode(rng.int(0, 0xffff));
    return s.slice(0, i) + c + s.slice(i + 1);
  }],
  [2, 'delete', (rng, s) => {
    const i = at(rng, s);
    return s.slice(0, i) + s.slice(i + rng.int(1, 8));
  }],
  [3, 'percent-garbage', (rng, s) => insert(rng, s, rng.pick(PERCENT_GARBAGE))],
  [2, 'unicode', (rng, s) => insert(rng, s, rng.pick(UNICODE))],
  [3, 'structure', (rng, s) => insert(rng, s, rng.pick(STRUCTURE))],
  [2, 'edge-number', (rng, s) => {
    const runs = [...s.matchAll(/\d+/g)];
    if (runs.length === 0) return insert(rng, s, rng.pick(EDGE_NUMBERS));
    const m = rng.pick(runs);
    return s.slice(0, m.index) + rng.pick(EDGE_NUMBERS) + s.slice(m.index + m[0].length);
  }],
  [1, 'very-long', (rng, s) => {
    const i = at(rng, s);
    const j = Math.min(s.length, i + rng.int(1, 20));
    const piece = s.slice(i, j) || 'a';
    return s.slice(0, j) + piece.repeat(Math.ceil(rng.int(1_000, 60_000) / piece.length)) + s.slice(j);
  }],
  [1, 'repeat-structure', (rng, s) => insert(rng, s, rng.pick(['(', 'not ', '(((', '/any(x:', ' and ', "''"]).repeat(rng.int(10, 2000)))],
  [1, 'swap-halves', (rng, s) => {
    const i = at(rng, s);
    return s.slice(i) + s.slice(0, i);
  }],
];

function mutateString(rng: Rng, s: string, names: string[], label: string): string {
  const m = rng.weighted(stringMutations.map(([w, name, f]) => [w, [name, f] as const] as const));
  names.push(`${label}:${m[0]}`);
  return m[1](rng, s);
}

/** Applies 1–3 mutations to the request in place; returns it. */
export function mutate(rng: Rng, req: FuzzRequest): FuzzRequest {
  const n = rng.weighted([[6, 1], [3, 2], [1, 3]] as const);
  for (let k = 0; k < n; k++) {
    rng.weighted<() => void>([
      [6, () => {
        // Mutate only after the path's start, so most requests still reach their route.
        const q = req.path.indexOf('?');
        const from = q >= 0 && rng.chance(0.7) ? q + 1 : Math.min(req.path.length, 4);
        req.path = req.path.slice(0, from) + mutateString(rng, req.path.slice(from), req.mutations, 'url');
      }],
      [1, () => {
        const q = req.path.indexOf('?');
        if (q < 0) return;
        const params = req.path.slice(q + 1).split('&');
        const p = rng.pick(params);
        req.mutations.push('url:duplicate-param');
        req.path = `${req.path}&${p}`;
      }],
      [req.body !== undefined ? 4 : 0, () => {
        req.body = mutateString(rng, req.body ?? '', req.mutations, 'body');
      }],
      [1, () => {
        req.mutations.push('body:replace');
        req.body = rng.pick(['', 'null', '[]', '{', '"x"', '1', 'true', '{"a":', '\u0000', 'x'.repeat(2_000_000)]);
        if (!req.headers['content-type']) req.headers['content-type'] = 'application/json';
      }],
      [1, () => {
        req.mutations.push('header:content-type');
        req.headers['content-type'] = rng.pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/xml', '']);
      }],
      [1, () => {
        req.mutations.push('method');
        req.method = rng.pick(['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS', 'MERGE', 'FOO']);
      }],
      [1, () => {
        req.mutations.push('header:authorization');
        req.headers.authorization = rng.pick(['Bearer', 'Bearer ', 'Bearer x', 'Bearer ' + 'a'.repeat(8000), 'Basic', 'Basic ===', 'Bearer eyJhbGciOiJub25lIn0.eyJpZCI6MX0.', 'Digest x', 'Bearer a.b.c']);
      }],
    ])();
  }
  return req;
}
