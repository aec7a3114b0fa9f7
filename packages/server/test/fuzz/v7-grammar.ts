import { model, type FieldDef } from '@flotilla/model';
import { resourceInfo, type Navigation, type ResourceInfo } from '../../src/infra/odata/resources.js';
import type { Rng } from './prng.js';
import type { FuzzRequest, FuzzWorld } from './request.js';

/**
 * A grammar of the balena `/v7` OData dialect (docs/fuzzing.md), built from the model: every
 * resource, its visible fields and their types, its navigations (to-one, to-many, the
 * caller's own) and its keys. It makes URLs a client could send — key paths, navigation
 * paths, `/$count`, `$filter` with operators, functions, `in`, arithmetic and `any`/`all`
 * lambdas, nested `$expand` with its own options, `$select`, `$orderby`, `$top`, `$skip`,
 * `$count` — and POST/PATCH bodies from the fields' types. Mutation (mutate.ts) breaks them.
 */

const RESOURCES = Object.keys(model).sort();
const SYNONYMS = Object.values(model).flatMap((d) => d.synonyms ?? []);
const info = (name: string): ResourceInfo => resourceInfo(name);

const COMPARISONS = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'] as const;
const TEXT_FUNCTIONS = ['contains', 'startswith', 'endswith', 'substringof'] as const;
const TEXT_UNARY = ['tolower', 'toupper', 'trim', 'length'] as const;
const DATE_PARTS = ['year', 'month', 'day', 'hour', 'minute', 'second', 'fractionalseconds', 'date', 'time', 'totalseconds'] as const;
const NUMBER_FUNCTIONS = ['round', 'floor', 'ceiling'] as const;
const ARITHMETIC = ['add', 'sub', 'mul', 'div', 'mod'] as const;

export const EDGE_NUMBERS = ['0', '-1', '1', '2147483647', '2147483648', '-2147483649', '9223372036854775807', '9223372036854775808', '9007199254740993', '1e308', '-1e308', '1.5', '0.0000001', '1e-400', 'NaN', 'Infinity', '-0'];
const TEXTS = ['', 'a', 'x y', "it's", '%', '_', '\\', 'ä', '日本語', '😀', '%25', '%27', 'null', "'", 'raspberrypi3', 'main', 'success', 'x'.repeat(300)];

function fields(r: ResourceInfo): FieldDef[] {
  return [...r.fields.values()];
}

function navigations(r: ResourceInfo): Navigation[] {
  return [...r.navigations.values()];
}

function idFor(rng: Rng, world: FuzzWorld, resource: string): string {
  const known = world.ids[resource] ?? [];
  return rng.weighted<() => string>([
    [8, () => String(known.length > 0 ? rng.pick(known) : rng.int(1, 50))],
    [1, () => rng.pick(EDGE_NUMBERS)],
    [1, () => String(rng.int(1, 100_000))],
  ])();
}

function quote(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** A literal of `f`'s type (mostly), for $filter. */
function literal(rng: Rng, world: FuzzWorld, f: FieldDef | undefined): string {
  if (!f || rng.chance(0.08)) return rng.pick(['null', 'true', "'x'", '1', "datetime'2024-01-01T00:00:00Z'", "duration'P1D'", '@a', 'now()']);
  if (f.enum && rng.chance(0.7)) return quote(rng.pick(f.enum));
  switch (f.type) {
    case 'Serial':
    case 'Integer':
    case 'Big Integer':
      return rng.chance(0.8) ? String(rng.int(-2, 100)) : rng.pick(EDGE_NUMBERS);
    case 'ForeignKey':
      return f.references ? idFor(rng, world, f.references) : '1';
    case 'Real':
      return rng.pick(['0.5', '1', '-3.25', '1e10', ...EDGE_NUMBERS]);
    case 'Boolean':
      return rng.pick(['true', 'false', 'null']);
    case 'Date Time':
      return rng.pick([
        "datetime'2024-01-01T00:00:00Z'",
        "datetime'2024-01-01T00:00:00.000Z'",
        "'2024-06-01T12:00:00Z'",
        'now()',
        "datetime'9999-12-31T23:59:59Z'",
        "datetime'0000-01-01T00:00:00Z'",
        "datetime'2024-13-45T99:99:99Z'",
      ]);
    case 'JSON':
    case 'WebResource':
      return rng.pick(["'{}'", "'[]'", 'null', "'{\"a\":1}'"]);
    default:
      if (f.name === 'uuid' && world.deviceUuids.length > 0 && rng.chance(0.5)) return quote(rng.pick([...world.deviceUuids, ...world.fleetUuids]));
      return quote(rng.pick(TEXTS));
  }
}

interface Scope {
  resource: ResourceInfo;
  /** Lambda variables in scope: name → resource. */
  vars: [string, ResourceInfo][];
  lambdaDepth: number;
}

/** A property path over `scope` (`field`, `nav/field`, `x/field` inside a lambda) and its field. */
function property(rng: Rng, scope: Scope): [string, FieldDef | undefined] {
  let prefix = '';
  let r = scope.resource;
  if (scope.vars.length > 0 && rng.chance(0.6)) {
    const [v, vr] = rng.pick(scope.vars);
    prefix = `${v}/`;
    r = vr;
  }
  const ones = navigations(r).filter((n) => n.kind === 'one');
  if (ones.length > 0 && rng.chance(0.25)) {
    const nav = rng.pick(ones);
    prefix += `${nav.name}/`;
    r = info(nav.target);
  }
  if (rng.chance(0.03)) return [`${prefix}no_such_field`, undefined];
  const f = rng.pick(fields(r));
  return [`${prefix}${f.name}`, f];
}

function comparison(rng: Rng, world: FuzzWorld, scope: Scope): string {
  const [path, f] = property(rng, scope);
  return rng.weighted<() => string>([
    [6, () => `${path} ${rng.pick(COMPARISONS)} ${literal(rng, world, f)}`],
    [1, () => `${literal(rng, world, f)} ${rng.pick(COMPARISONS)} ${path}`],
    [2, () => `${rng.pick(TEXT_FUNCTIONS)}(${path},${literal(rng, world, f)})`],
    [1, () => `${rng.pick(TEXT_UNARY)}(${path}) ${rng.pick(COMPARISONS)} ${rng.chance(0.5) ? quote(rng.pick(TEXTS)) : String(rng.int(0, 40))}`],
    [1, () => `${rng.pick(DATE_PARTS)}(${path}) ${rng.pick(COMPARISONS)} ${rng.int(0, 2030)}`],
    [1, () => `${path} ${rng.pick(ARITHMETIC)} ${rng.pick(EDGE_NUMBERS)} ${rng.pick(COMPARISONS)} ${rng.int(-5, 5)}`],
    [1, () => `${rng.pick(NUMBER_FUNCTIONS)}(${path}) eq ${rng.int(0, 9)}`],
    [1, () => `${path} in (${Array.from({ length: rng.int(0, 4) }, () => literal(rng, world, f)).join(',')})`],
    [1, () => `indexof(${path},${quote(rng.pick(TEXTS))}) ${rng.pick(COMPARISONS)} ${rng.int(-1, 3)}`],
    [1, () => `substring(${path},${rng.int(-1, 3)}${rng.chance(0.5) ? `,${rng.int(-1, 5)}` : ''}) eq ${quote(rng.pick(TEXTS))}`],
    [1, () => `concat(${path},${quote('x')}) eq ${quote('ax')}`],
    [1, () => `replace(${path},'a','b') eq ${quote('b')}`],
    [1, () => `${path} eq ${rng.pick(['mindatetime()', 'maxdatetime()', 'now()'])}`],
    [1, () => `${path}`],
  ])();
}

function lambda(rng: Rng, world: FuzzWorld, scope: Scope, depth: number): string {
  const many = navigations(scope.resource).filter((n) => n.kind === 'many' || n.kind === 'caller');
  if (many.length === 0) return comparison(rng, world, scope);
  const nav = rng.pick(many);
  const v = rng.pick(['x', 'y', 'd', 'a', 'b', 'it']);
  const inner: Scope = { resource: info(nav.target), vars: [...scope.vars, [v, info(nav.target)]], lambdaDepth: scope.lambdaDepth + 1 };
  if (rng.chance(0.15)) return `${nav.name}/$count${rng.chance(0.5) ? `($filter=${filter(rng, world, { ...inner, vars: [] }, depth + 1)})` : ''} ${rng.pick(COMPARISONS)} ${rng.int(0, 3)}`;
  const method = rng.pick(['any', 'all']);
  if (rng.chance(0.05)) return `${nav.name}/${method}()`;
  return `${nav.name}/${method}(${v}:${filter(rng, world, inner, depth + 1)})`;
}

/** A $filter expression over `scope`. */
export function filter(rng: Rng, world: FuzzWorld, scope: Scope, depth = 0): string {
  if (depth > 3) return comparison(rng, world, scope);
  return rng.weighted<() => string>([
    [6, () => comparison(rng, world, scope)],
    [2, () => `${filter(rng, world, scope, depth + 1)} ${rng.pick(['and', 'or'])} ${filter(rng, world, scope, depth + 1)}`],
    [1, () => `not (${filter(rng, world, scope, depth + 1)})`],
    [1, () => `(${filter(rng, world, scope, depth + 1)})`],
    [scope.lambdaDepth < 4 ? 2 : 0, () => lambda(rng, world, scope, depth)],
  ])();
}

/** `$select`, `$filter`, `$expand`, `$orderby`, `$top`, `$skip`, `$count` for `r`, joined with `sep`. */
function options(rng: Rng, world: FuzzWorld, r: ResourceInfo, depth: number, sep: string): string {
  const out: string[] = [];
  const fs = fields(r);
  if (rng.chance(0.5)) out.push(`$select=${rng.chance(0.05) ? '*' : rng.some(fs, 6).map((f) => f.name).join(',')}`);
  if (rng.chance(0.6)) out.push(`$filter=${filter(rng, world, { resource: r, vars: [], lambdaDepth: 0 })}`);
  if (rng.chance(depth === 0 ? 0.5 : 0.25) && depth < 6) {
    const navs = navigations(r);
    if (navs.length > 0) {
      out.push(
        `$expand=${rng
          .some(navs, 3)
          .map((n) => {
            const nested = rng.chance(0.5) ? options(rng, world, info(n.target), depth + 1, ';') : '';
            if (n.kind !== 'one' && rng.chance(0.1)) return `${n.name}/$count${nested ? `(${nested})` : ''}`;
            return nested ? `${n.name}(${nested})` : n.name;
          })
          .join(',')}`,
      );
    }
  }
  if (rng.chance(0.3)) out.push(`$orderby=${rng.some(fs, 3).map((f) => `${f.name}${rng.pick(['', ' asc', ' desc'])}`).join(',')}`);
  if (rng.chance(0.3)) out.push(`$top=${rng.chance(0.8) ? rng.int(0, 50) : rng.pick(['10000', '10001', ...EDGE_NUMBERS])}`);
  if (rng.chance(0.2)) out.push(`$skip=${rng.chance(0.8) ? rng.int(0, 50) : rng.pick(EDGE_NUMBERS)}`);
  if (rng.chance(0.1)) out.push(`$count=${rng.pick(['true', 'false'])}`);
  if (rng.chance(0.03)) out.push(rng.pick(['$format=json', '$search=x', '$levels=2', '$apply=x', '@a=1', 'x=1']));
  return out.join(sep);
}

/** A key path segment: `(1)`, `(id=1)`, `(uuid='…')`, `(a=1,b='x')` from the resource's keys. */
function key(rng: Rng, world: FuzzWorld, r: ResourceInfo): string {
  if (rng.chance(0.6) || r.keys.length <= 1) return `(${idFor(rng, world, r.name)})`;
  const k = rng.pick(r.keys);
  return `(${k.map((name) => `${name}=${name === 'id' ? idFor(rng, world, r.name) : literal(rng, world, r.fields.get(name))}`).join(',')})`;
}

function resourcePath(rng: Rng, world: FuzzWorld, withKey: boolean): { path: string; resource: ResourceInfo } {
  const name = rng.chance(0.04) ? rng.pick([...SYNONYMS, 'no_such_resource', 'constructor', '__proto__', '$metadata', '']) : rng.pick(RESOURCES);
  let r: ResourceInfo;
  try {
    r = info(name);
  } catch {
    return { path: `/v7/${name}`, resource: info('device') };
  }
  let path = `/v7/${name}`;
  if (withKey) path += key(rng, world, r);
  // A navigation path: `/v7/device(1)/belongs_to__application`.
  if (withKey && rng.chance(0.03)) {
    const navs = navigations(r);
    if (navs.length > 0) {
      const nav = rng.pick(navs);
      path += `/${nav.name}`;
      r = info(nav.target);
    }
  }
  return { path, resource: r };
}

export function v7Read(rng: Rng, world: FuzzWorld): FuzzRequest {
  const { path, resource } = resourcePath(rng, world, rng.chance(0.35));
  const count = rng.chance(0.08) ? '/$count' : '';
  const opts = options(rng, world, resource, 0, '&');
  return { kind: 'v7-read', method: 'GET', path: `${path}${count}${opts ? `?${opts}` : ''}`, headers: {}, actor: '', mutations: [] };
}

/** A value for `f` in a JSON body: mostly its type, sometimes a wrong type, null or an edge. */
export function bodyValue(rng: Rng, world: FuzzWorld, f: FieldDef): unknown {
  const wrong = (): unknown => rng.pick<unknown>([null, true, 0, -1, 2 ** 31, 2 ** 63, 1.5, '', 'x', [], {}, [1, 2], { a: { b: 1 } }, '1', 'true', 'x'.repeat(100_000)]);
  if (rng.chance(0.15)) return wrong();
  if (f.enum && rng.chance(0.7)) return rng.pick(f.enum);
  switch (f.type) {
    case 'Serial':
    case 'Integer':
    case 'Big Integer':
      return rng.chance(0.8) ? rng.int(-1, 100) : rng.pick([2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e308, 0.5]);
    case 'ForeignKey':
      return f.references ? Number(idFor(rng, world, f.references)) : 1;
    case 'Real':
      return rng.pick([0, 0.5, -1, 1e308, 3.14]);
    case 'Boolean':
      return rng.chance(0.9) ? rng.chance(0.5) : rng.pick(['true', 1, 'yes']);
    case 'Date Time':
      return rng.pick(['2024-01-01T00:00:00Z', new Date(0).toISOString(), '9999-12-31T23:59:59.999Z', 'yesterday', '2024-02-30T00:00:00Z', 1700000000000]);
    case 'JSON':
      return rng.pick<unknown>([{}, { a: 1 }, [], deepJson(rng.int(1, 200)), 'not json', { x: 'y'.repeat(1000) }]);
    case 'WebResource':
      return rng.pick<unknown>([null, { filename: 'a.png', content_type: 'image/png', href: 'data:x' }, 'x']);
    default:
      return rng.weighted<() => unknown>([
        [6, () => `fz-${rng.int(0, 1e9).toString(36)}`],
        [1, () => rng.pick(TEXTS)],
        [1, () => 'ü'.repeat(rng.int(1, f.maxLength ? f.maxLength + 2 : 300))],
        [0.2, () => '\u0000x\uFFFF\uD800'],
      ])();
  }
}

/** `depth` nested objects and arrays as JSON text (built as text: JSON.stringify would recurse). */
export function deepJsonText(depth: number): string {
  let open = '';
  let close = '';
  for (let i = depth - 1; i >= 0; i--) {
    open += i % 2 ? '[' : '{"a":';
    close = (i % 2 ? ']' : '}') + close;
  }
  return `${open}1${close}`;
}

export function deepJson(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

export function v7Write(rng: Rng, world: FuzzWorld): FuzzRequest {
  const method = rng.weighted<string>([[5, 'POST'], [5, 'PATCH'], [1, 'DELETE'], [1, 'PUT']]);
  const { path, resource } = resourcePath(rng, world, method !== 'POST' || rng.chance(0.05));
  const filterOpt = method !== 'POST' && rng.chance(0.2) ? `?$filter=${filter(rng, world, { resource, vars: [], lambdaDepth: 0 })}` : '';
  let body: string | undefined;
  if (method !== 'DELETE' || rng.chance(0.1)) {
    const fs = fields(resource).filter((f) => rng.chance(0.1) || (f.writable ?? 'always') !== 'never');
    const pool = fs.length > 0 ? fs : fields(resource);
    const chosen = method === 'POST' ? pool.filter((f) => f.required || rng.chance(0.4)) : rng.some(pool, 3);
    const obj: Record<string, unknown> = {};
    for (const f of chosen) obj[f.name] = bodyValue(rng, world, f);
    if (rng.chance(0.05)) obj[rng.pick(['no_such_field', '__proto__', 'constructor', '@odata.type', ''])] = 1;
    body = rng.weighted<() => string>([
      [20, () => JSON.stringify(obj)],
      [1, () => JSON.stringify([obj])],
      [1, () => 'null'],
      [1, () => deepJsonText(rng.int(100, 5000))],
    ])();
  }
  return { kind: 'v7-write', method, path: `${path}${filterOpt}`, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body, actor: '', mutations: [] };
}
