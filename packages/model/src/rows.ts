import type { ModelDefs } from './model.js';
import type { FieldDef, FieldType } from './types.js';

/**
 * TypeScript types derived from the resource definitions (./resources/*), so that code using
 * a field the model lacks, or giving it the wrong type, fails to compile. The definitions
 * keep their literal types (`as const satisfies ResourceDef`); nothing here exists at runtime.
 *
 *  - `Row<R>`: a row as the data layer holds it (hooks, repositories): FKs as ids.
 *  - `ApiRow<R>`: a row as the data API (/v7) answers it: FKs as `{__id}`, no secret fields,
 *    private fields possibly null.
 *  - `Expanded<R, E>`: an `ApiRow` with navigations `$expand`ed (to-one and to-many both as
 *    arrays, dialect §3).
 *  - `PostBody<R>`, `Patch<R>`: what a client may write.
 */

/** The name of a resource of the model (synonyms not included). */
export type ResourceName = keyof ModelDefs & string;

/** The field definitions of resource `R`, each with its literal type. */
export type FieldOf<R extends ResourceName> = ModelDefs[R]['fields'][number];
/** The field names of resource `R`. */
export type FieldName<R extends ResourceName> = FieldOf<R>['name'];
/** The definition of field `K` of resource `R`. */
export type FieldNamed<R extends ResourceName, K extends FieldName<R>> = Extract<FieldOf<R>, { name: K }>;

/** A WebResource field as the data API shows it (`href` a signed link, or null without a file store). */
export interface WebResource {
  filename: string;
  content_type: string;
  size: number;
  href: string | null;
}

type ScalarOf<T extends FieldType> = T extends 'Serial' | 'Integer' | 'Big Integer' | 'Real' | 'ForeignKey'
  ? number
  : T extends 'Boolean'
    ? boolean
    : T extends 'Short Text' | 'Text' | 'Date Time'
      ? string
      : T extends 'WebResource'
        ? WebResource
        : unknown;

/** A field's value when present: its enum's literals, else the TypeScript type of its FieldType. */
type ValueOf<F extends FieldDef> = F extends { enum: readonly (infer E)[] } ? E : ScalarOf<F['type']>;

/** Serial and required fields are NOT NULL; every other field may be null. */
type NotNull<F extends FieldDef> = F extends { type: 'Serial' } ? true : F extends { required: true } ? true : false;

/** The TypeScript type of field definition `F` as the data layer holds it. */
export type FieldValue<F extends FieldDef> = NotNull<F> extends true ? ValueOf<F> : ValueOf<F> | null;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** A row of resource `R` as the data layer holds it: every field (secret ones too), FKs as ids. */
export type Row<R extends ResourceName> = Simplify<{ [F in FieldOf<R> as F['name']]: FieldValue<F> }>;

/** A ForeignKey field of `R` and the resource it references. */
type ToOne<R extends ResourceName> = Extract<FieldOf<R>, { type: 'ForeignKey'; references: ResourceName }>;
/** The reverse (to-many) navigations of `R`. */
type ToMany<R extends ResourceName> = ModelDefs[R] extends { reverse: readonly (infer N)[] } ? N : never;

/** The names of the navigations of `R`: its ForeignKey fields (to-one) and its `reverse` (to-many). */
export type NavigationName<R extends ResourceName> = ToOne<R>['name'] | (ToMany<R> extends { name: infer N extends string } ? N : never);

/** The resource navigation `N` of `R` leads to. */
export type NavigationTarget<R extends ResourceName, N extends NavigationName<R>> =
  | (Extract<ToOne<R>, { name: N }> & { references: string })['references'] & ResourceName
  | ((Extract<ToMany<R>, { name: N }> & { resource: string })['resource'] & ResourceName);

/** An unexpanded to-one navigation in a data API answer. */
export interface Deferred {
  __id: number;
}

type ApiValue<F extends FieldDef> = F extends { type: 'ForeignKey' }
  ? NotNull<F> extends true
    ? Deferred
    : Deferred | null
  : F extends { private: true }
    ? ValueOf<F> | null
    : FieldValue<F>;

/** A row of `R` as the data API answers it: no secret fields, FKs as `{__id}`, private fields possibly null. */
export type ApiRow<R extends ResourceName> = Simplify<{
  [F in FieldOf<R> as F extends { secret: true } ? never : F['name']]: ApiValue<F>;
}>;

/**
 * What to `$expand` on `R`: a navigation name (or a union of them), or an object from navigation
 * names to what to expand on their target (`true` for nothing further).
 */
export type ExpandSpec<R extends ResourceName> = NavigationName<R> | { [N in NavigationName<R>]?: true | ExpandSpec<NavigationTarget<R, N>> };

type ExpandOf<R extends ResourceName, E> = [E] extends [string]
  ? { [N in E & NavigationName<R>]: Expanded<NavigationTarget<R, N>, never>[] }
  : { [N in keyof E & NavigationName<R>]-?: Expanded<NavigationTarget<R, N>, E[N] extends true ? never : NonNullable<E[N]>>[] };

/**
 * `ApiRow<R>` with the navigations of `E` expanded: each an array of target rows (a to-one
 * navigation gives zero or one row, dialect §3).
 * `Expanded<'device', 'belongs_to__application'>`,
 * `Expanded<'application', { owns__device: 'is_of__device_type' }>`.
 */
export type Expanded<R extends ResourceName, E = never> = [E] extends [never]
  ? ApiRow<R>
  : Simplify<Omit<ApiRow<R>, keyof ExpandOf<R, E>> & ExpandOf<R, E>>;

/** Writable on POST: neither server-maintained, computed, secret nor the Serial id. */
type PostWritable<F extends FieldDef> = F extends { type: 'Serial' } | { writable: 'never' } | { computed: string } | { secret: true } ? false : true;
/** Writable on PATCH: as on POST, and not `writable: 'create'`. */
type PatchWritable<F extends FieldDef> = PostWritable<F> extends true ? (F extends { writable: 'create' } ? false : true) : false;
/** A POST must name it: required, without a default or a default reference. */
type MustPost<F extends FieldDef> = F extends { required: true } ? (F extends { default: string } | { defaultReference: object } ? false : true) : false;

/** What a client may POST to create a row of `R`: required fields without a default are required. */
export type PostBody<R extends ResourceName> = Simplify<
  { [F in FieldOf<R> as PostWritable<F> extends true ? (MustPost<F> extends true ? F['name'] : never) : never]: FieldValue<F> } & {
    [F in FieldOf<R> as PostWritable<F> extends true ? (MustPost<F> extends true ? never : F['name']) : never]?: FieldValue<F>;
  }
>;

/** What a client may PATCH on a row of `R`: the fields writable after creation, all optional. */
export type Patch<R extends ResourceName> = Simplify<{
  [F in FieldOf<R> as PatchWritable<F> extends true ? F['name'] : never]?: FieldValue<F>;
}>;
