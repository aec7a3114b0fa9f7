#!/usr/bin/env node
// Verifies an audit log export (GET /audit/v1/organization/{id}/events.ndjson) offline, without
// trusting the server: each line's hash is recomputed from its content and each line must link
// to the one before it. Usage: node scripts/verify-audit.mjs export.ndjson [more pages…]
// Exit status 0 when the chain holds, 1 when a row is broken (its id is printed), 2 on bad input.
// The format is described in docs/audit-log.md; this file depends on nothing but Node.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/**
 * The text PostgreSQL's jsonb renders for a value (what the server hashed): object keys ordered
 * by their UTF-8 length, then bytewise; `", "` between items and `": "` after keys.
 */
export function jsonbText(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(jsonbText).join(', ')}]`;
  if (typeof value === 'object') {
    const keys = Object.keys(value).sort((a, b) => {
      const x = Buffer.from(a, 'utf8');
      const y = Buffer.from(b, 'utf8');
      return x.length - y.length || Buffer.compare(x, y);
    });
    return `{${keys.map((k) => `${JSON.stringify(k)}: ${jsonbText(value[k])}`).join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 (hex) over a row's canonical content: every field of the line but `hash`. */
export function rowHash(row) {
  const { hash: _hash, ...content } = row;
  return createHash('sha256').update(jsonbText(content), 'utf8').digest('hex');
}

/**
 * Checks the lines of one organization's export, in order. The first line may link to a row
 * before the export (a page or time range that does not start at the beginning): its
 * prev_hash is reported as `startsAfter`. Answers `{ rows, lastId, headHash, startsAfter,
 * broken: null | { id, line, reason: 'hash' | 'link' | 'organization' | 'order' } }`.
 */
export function verifyExport(text) {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  let prev = null;
  let startsAfter = null;
  let organization = null;
  for (let i = 0; i < lines.length; i++) {
    const row = JSON.parse(lines[i]);
    const at = { id: row.id, line: i + 1 };
    if (i === 0) {
      startsAfter = row.prev_hash;
      organization = row.organization;
    } else {
      if (row.organization !== organization) return result(i, prev, startsAfter, { ...at, reason: 'organization' });
      if (!(row.id > prev.id)) return result(i, prev, startsAfter, { ...at, reason: 'order' });
      if (row.prev_hash !== prev.hash) return result(i, prev, startsAfter, { ...at, reason: 'link' });
    }
    if (rowHash(row) !== row.hash) return result(i, prev, startsAfter, { ...at, reason: 'hash' });
    prev = row;
  }
  return result(lines.length, prev, startsAfter, null);
}

function result(rows, last, startsAfter, broken) {
  return { rows, lastId: last?.id ?? null, headHash: last?.hash ?? null, startsAfter, broken };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    console.error('usage: node scripts/verify-audit.mjs export.ndjson [next-page.ndjson …]');
    process.exit(2);
  }
  let status;
  try {
    status = verifyExport(files.map((f) => readFileSync(f, 'utf8')).join('\n'));
  } catch (err) {
    console.error(`not an audit log export: ${err.message}`);
    process.exit(2);
  }
  if (status.broken) {
    console.log(`BROKEN at row ${status.broken.id} (line ${status.broken.line}): ${status.broken.reason === 'hash' ? 'its content does not match its hash' : status.broken.reason === 'link' ? 'it does not link to the row before it (a row removed or altered)' : `rows out of ${status.broken.reason}`}`);
    console.log(`verified up to row ${status.lastId ?? '(none)'} (${status.rows} rows)`);
    process.exit(1);
  }
  console.log(`OK: ${status.rows} rows verified up to row ${status.lastId ?? '(none)'}; head hash ${status.headHash ?? '(none)'}`);
  if (status.startsAfter) console.log(`the export starts after the row whose hash is ${status.startsAfter}`);
}
