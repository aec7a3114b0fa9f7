import type { FieldDef } from '@flotilla/model';
import { BadRequestError } from '../errors.js';
import { unknownField, type ResourceInfo } from './resources.js';
import { StoredWebResource } from './web-resource.js';

/**
 * Write bodies checked against the model before any SQL runs: known, non-secret fields
 * only (a secret field gets the same message as an unknown one), writability, types,
 * enums, lengths and required fields.
 */

export type Body = Record<string, unknown>;

const INT32 = 2 ** 31;
const SHORT_TEXT_MAX = 255;

function invalid(info: ResourceInfo, f: FieldDef, expected: string): BadRequestError {
  return new BadRequestError(`Invalid value for field '${f.name}' on resource '${info.name}': expected ${expected}`);
}

function integer(info: ResourceInfo, f: FieldDef, value: unknown, max: number): number {
  const n = typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n >= max || n < -max) throw invalid(info, f, 'an integer');
  return n;
}

/** A value converted to what the column takes; throws 400 when it cannot be. */
export function coerceValue(info: ResourceInfo, f: FieldDef, value: unknown): unknown {
  if (value === null) {
    if (f.required) throw new BadRequestError(`Field '${f.name}' on resource '${info.name}' must not be null`);
    return null;
  }
  switch (f.type) {
    case 'Serial':
    case 'Integer':
      return integer(info, f, value, INT32);
    case 'Big Integer':
      return integer(info, f, value, Number.MAX_SAFE_INTEGER + 1);
    case 'ForeignKey': {
      // balena clients send a reference either bare or as the `{__id}` they read.
      const id = typeof value === 'object' && value !== null && '__id' in value ? (value as { __id: unknown }).__id : value;
      return integer(info, f, id, INT32);
    }
    case 'Real':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(info, f, 'a number');
      return value;
    case 'Boolean':
      if (value === 0 || value === 1) return value === 1;
      if (typeof value !== 'boolean') throw invalid(info, f, 'a boolean');
      return value;
    case 'Short Text':
    case 'Text': {
      if (typeof value !== 'string') throw invalid(info, f, 'a string');
      const max = f.maxLength ?? (f.type === 'Short Text' ? SHORT_TEXT_MAX : undefined);
      if (max !== undefined && value.length > max) {
        throw new BadRequestError(`Field '${f.name}' on resource '${info.name}' must be at most ${max} characters`);
      }
      if (f.enum && !f.enum.includes(value)) {
        throw new BadRequestError(`Field '${f.name}' on resource '${info.name}' must be one of: ${f.enum.join(', ')}`);
      }
      return value;
    }
    case 'Date Time': {
      const ms = value instanceof Date ? value.getTime() : typeof value === 'string' || typeof value === 'number' ? new Date(value).getTime() : NaN;
      if (Number.isNaN(ms)) throw invalid(info, f, 'a date');
      return new Date(ms).toISOString();
    }
    case 'JSON':
      return value;
    case 'WebResource':
      // Only a file the server stored for this request (multipart upload): never a value a
      // client wrote, which could name another file's key.
      if (!(value instanceof StoredWebResource)) throw invalid(info, f, 'a file uploaded as multipart/form-data');
      return value.value;
  }
}

function writableOf(f: FieldDef): 'always' | 'create' | 'never' {
  return f.type === 'Serial' ? 'never' : (f.writable ?? 'always');
}

/**
 * The client's body: a JSON object of fields the caller may write with this method.
 * `accepted` are extra inputs a hook translates (kept as sent).
 */
export function validateInput(info: ResourceInfo, body: unknown, method: 'POST' | 'PATCH', accepted: ReadonlySet<string>): Body {
  if (typeof body === 'string') {
    try {
      body = body.trim() === '' ? {} : JSON.parse(body);
    } catch {
      throw new BadRequestError('The request body must be a JSON object');
    }
  }
  if (body === undefined || body === null) body = {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new BadRequestError('The request body must be a JSON object');
  const out: Body = {};
  for (const [name, value] of Object.entries(body as Body)) {
    if (accepted.has(name)) {
      out[name] = value;
      continue;
    }
    const f = info.fields.get(name);
    if (!f) throw unknownField(info, name);
    const writable = writableOf(f);
    if (writable === 'never' || (writable === 'create' && method === 'PATCH')) {
      throw new BadRequestError(`Field '${name}' on resource '${info.name}' is not writable`);
    }
    out[name] = coerceValue(info, f, value);
  }
  return out;
}

/**
 * The body after `before` hooks, as columns and parameter values. Hooks are trusted: they
 * may set server-maintained (and secret) columns, but not unknown ones.
 */
export function toColumns(info: ResourceInfo, body: Body, method: 'POST' | 'PATCH'): { names: string[]; values: unknown[] } {
  const names: string[] = [];
  const values: unknown[] = [];
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined) continue;
    const f = info.columns.get(name);
    if (!f || f.type === 'Serial') throw unknownField(info, name);
    // validateInput already turned an upload into the column's value.
    const v = f.type === 'WebResource' && value !== null && !(value instanceof StoredWebResource) ? value : coerceValue(info, f, value);
    names.push(name);
    // pg would send a JS array as a PostgreSQL array; JSON columns take JSON text.
    values.push((f.type === 'JSON' || f.type === 'WebResource') && v !== null ? JSON.stringify(v) : v);
  }
  if (method === 'POST') {
    for (const f of info.def.fields) {
      if (f.required && f.default === undefined && f.type !== 'Serial' && !names.includes(f.name)) {
        // Naming a missing secret column would reveal that it exists.
        throw new BadRequestError(f.secret ? `A required field is missing on resource '${info.name}'` : `Field '${f.name}' on resource '${info.name}' is required`);
      }
    }
  }
  return { names, values };
}
