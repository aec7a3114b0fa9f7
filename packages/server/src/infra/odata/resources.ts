import { CALLER_NAVIGATIONS, model, type FieldDef, type FieldType, type ResourceDef } from '@flotilla/model';
import { BadRequestError, NotFoundError } from '../errors.js';

/**
 * The model as the data API sees it: fields by name (secret ones hidden), navigations by
 * name, and the key sets usable in a key path. Built once per resource, on first use.
 */

/** The type of a value in a $filter expression (fields map onto these). */
export type ValueType = 'number' | 'text' | 'boolean' | 'datetime' | 'date' | 'time' | 'json' | 'duration' | 'null';

export const VALUE_TYPE: Record<FieldType, ValueType> = {
  Serial: 'number',
  Integer: 'number',
  'Big Integer': 'number',
  Real: 'number',
  Boolean: 'boolean',
  'Short Text': 'text',
  Text: 'text',
  'Date Time': 'datetime',
  JSON: 'json',
  WebResource: 'json',
  ForeignKey: 'number',
};

/**
 * A to-one navigation (a ForeignKey field: `target.id = this.column`), a to-many one
 * (a `reverse` entry: `target.column = this.id`), or one to the caller's own row
 * (`CALLER_NAVIGATIONS`: `target.actor = caller` when `condition` holds at this row).
 */
export type Navigation =
  | {
      name: string;
      kind: 'one' | 'many';
      target: string;
      /** to-one: the foreign key column on this resource; to-many: the `via` column on the target. */
      column: string;
      /** to-one over a computed ForeignKey: its expression (`FieldDef.computed`), not a column. */
      computed?: string;
    }
  | {
      name: string;
      kind: 'caller';
      target: string;
      /** The resource the navigation starts from (its condition is over that row). */
      from: string;
      /** A filter text over the starting row, bound to the caller (`@__ACTOR_ID`). */
      condition: string;
    };

export interface ResourceInfo {
  name: string;
  def: ResourceDef;
  /** Fields the API may see (secret ones are absent: they do not exist for the API). */
  fields: ReadonlyMap<string, FieldDef>;
  /** Every column, secret ones included (permission conditions are trusted code). */
  columns: ReadonlyMap<string, FieldDef>;
  navigations: ReadonlyMap<string, Navigation>;
  /** Field sets a key path may name: `id`, alternate keys and unique constraints. */
  keys: readonly (readonly string[])[];
}

const infos = new Map<string, ResourceInfo>();

function build(def: ResourceDef): ResourceInfo {
  const columns = new Map(def.fields.map((f) => [f.name, f] as const));
  for (const f of def.fields) {
    // Keys and navigations use these columns as they are: they cannot read as null.
    if (f.private && (f.type === 'ForeignKey' || f.type === 'Serial')) throw new Error(`${def.name}.${f.name}: a ${f.type} cannot be private`);
    if (f.defaultReference) {
      // A default reference names one row: by an alternate key of a reference-data target.
      const target = f.type === 'ForeignKey' && f.references !== undefined ? model[f.references] : undefined;
      const named = Object.keys(f.defaultReference).sort().join(',');
      if (!target?.alternateKeys?.some((k) => [...k].sort().join(',') === named)) {
        throw new Error(`${def.name}.${f.name}: defaultReference must name an alternate key of the referenced resource`);
      }
    }
    if (f.computed !== undefined && (f.writable ?? 'always') !== 'never') throw new Error(`${def.name}.${f.name}: a computed field is never writable`);
  }
  const fields = new Map(def.fields.filter((f) => !f.secret).map((f) => [f.name, f] as const));
  const navigations = new Map<string, Navigation>();
  for (const f of fields.values()) {
    if (f.type === 'ForeignKey' && f.references) {
      navigations.set(f.name, { name: f.name, kind: 'one', target: f.references, column: f.name, ...(f.computed !== undefined && { computed: f.computed }) });
    }
  }
  for (const r of def.reverse ?? []) navigations.set(r.name, { name: r.name, kind: 'many', target: r.resource, column: r.via });
  for (const c of CALLER_NAVIGATIONS[def.name] ?? []) {
    navigations.set(c.name, { name: c.name, kind: 'caller', target: c.resource, from: def.name, condition: c.condition });
  }
  const keys = [['id'], ...(def.alternateKeys ?? []), ...(def.unique ?? [])].filter((k) => k.every((f) => fields.has(f)));
  return { name: def.name, def, fields, columns, navigations, keys };
}

/** Synonym → resource name (dialect §3: `release_image` is `image__is_part_of__release`). */
const synonyms = new Map(Object.values(model).flatMap((def) => (def.synonyms ?? []).map((s) => [s, def.name] as const)));

/**
 * The resource named in a URL (or by a synonym, which resolves to the same resource, its
 * permissions and hooks included); unknown (or inherited from Object.prototype) → 404.
 */
export function resourceInfo(name: string): ResourceInfo {
  let info = infos.get(name);
  if (info) return info;
  const canonical = synonyms.get(name);
  if (canonical !== undefined) return resourceInfo(canonical);
  const def = Object.hasOwn(model, name) ? model[name] : undefined;
  if (!def) throw new NotFoundError(`Unknown resource: ${name}`);
  info = build(def);
  infos.set(name, info);
  return info;
}

export function unknownField(resource: ResourceInfo, name: string): BadRequestError {
  return new BadRequestError(`Unknown field '${name}' on resource '${resource.name}'`);
}

/** A visible field, or 400 with the same message whether it is missing or secret. */
export function fieldOf(resource: ResourceInfo, name: string, trusted = false): FieldDef {
  const f = (trusted ? resource.columns : resource.fields).get(name);
  if (!f) throw unknownField(resource, name);
  return f;
}

export function navigationOf(resource: ResourceInfo, name: string): Navigation {
  const nav = resource.navigations.get(name);
  if (nav) return nav;
  if (resource.fields.has(name)) throw new BadRequestError(`'${name}' on resource '${resource.name}' is not a navigation`);
  throw unknownField(resource, name);
}

/** The resource a navigation leads to (the model guarantees it exists). */
export function navigationTarget(nav: Navigation): ResourceInfo {
  return resourceInfo(nav.target);
}
