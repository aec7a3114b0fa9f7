import type { ApiRow, FieldName, NavigationName, NavigationTarget, Patch, PostBody, ResourceName } from '@flotilla/model';
import { sdk } from './sdk';

/**
 * `sdk.pine` typed from Flotilla's model (@flotilla/model): a query names fields and
 * navigations of the resource (a misspelt one fails to compile), and the rows come back
 * typed by what the query selects and expands. balena-sdk's own pine types describe
 * balena's model, not ours (resources such as `social_service_account`, fields it does not
 * know), so this is the one place that steps around them.
 */

type Many<T> = T | readonly T[];

/** A pine `$filter` (not checked against the model). */
export type Filter = object;

/** A navigation counted rather than expanded: `$expand: { owns__device: { $count: {…} } }`. */
export interface CountExpand {
  $count: { $filter?: Filter } | true;
}

/** The options of a pine query on resource `R`. */
export interface Query<R extends ResourceName> {
  $select?: Many<FieldName<R>>;
  $filter?: Filter;
  $expand?: Many<NavigationName<R>> | { [N in NavigationName<R>]?: Query<NavigationTarget<R, N>> | CountExpand };
  $orderby?: unknown;
  $top?: number;
  $skip?: number;
}

type Nothing = Record<never, never>;
type Selected<R extends ResourceName, Q> = Q extends { $select: infer S } ? (S extends readonly (infer T)[] ? T : S) & keyof ApiRow<R> : keyof ApiRow<R>;
type ExpandMap<Q> = Q extends { $expand: infer E }
  ? E extends string
    ? { [K in E]: Nothing }
    : E extends readonly (infer K extends string)[]
      ? { [P in K]: Nothing }
      : E
  : Nothing;

type Simplify<T> = { [K in keyof T]: T[K] } & unknown;

/**
 * A row of `R` as query `Q` returns it: the `$select`ed fields (all when none), each
 * expanded navigation an array of rows of its target (to-one ones too, dialect §3), a
 * counted navigation a number.
 */
export type Result<R extends ResourceName, Q> = Simplify<
  Pick<ApiRow<R>, Exclude<Selected<R, Q>, keyof ExpandMap<Q>>> & {
    [N in keyof ExpandMap<Q> & NavigationName<R>]: ExpandMap<Q>[N] extends CountExpand ? number : Result<NavigationTarget<R, N>, ExpandMap<Q>[N]>[];
  }
>;

// The one crossing of balena-sdk's pine types (see above): our queries and rows are typed
// from our model, so the SDK is called with its parameters' and results' types set aside.
type PineGet = (params: { resource: string; id?: unknown; options?: unknown }) => Promise<unknown>;
type PineWrite = (params: { resource: string; id?: unknown; body?: unknown; options?: unknown }) => Promise<unknown>;
const pine = sdk.pine as unknown as { get: PineGet; post: PineWrite; patch: PineWrite; delete: PineWrite };

/** The rows of `resource` that `options` selects. */
export async function pineGet<R extends ResourceName, const Q extends Query<R>>(resource: R, options: Q): Promise<Result<R, Q>[]> {
  return (await pine.get({ resource, options })) as Result<R, Q>[];
}

/** One row by id (or alternate key), or undefined. */
export async function pineGetOne<R extends ResourceName, const Q extends Query<R>>(
  resource: R,
  id: number | Filter,
  options: Q,
): Promise<Result<R, Q> | undefined> {
  return (await pine.get({ resource, id, options })) as Result<R, Q> | undefined;
}

/** How many rows of `resource` match `$filter`. */
export async function pineCount<R extends ResourceName>(resource: R, options: { $filter?: Filter } = {}): Promise<number> {
  return (await pine.get({ resource, options: { $count: options } })) as number;
}

/**
 * A POST body of `R`: the model's PostBody, or (membership resources, dialect §2) with
 * `username` in place of `user`.
 */
export type PineBody<R extends ResourceName> = PostBody<R> | (Omit<PostBody<R>, 'user'> & { username: string });

/** Creates a row of `resource`; the created row's id. */
export async function pinePost<R extends ResourceName>(resource: R, body: PineBody<R>): Promise<{ id: number }> {
  return (await pine.post({ resource, body })) as { id: number };
}

/** Changes the rows of `resource` by id or by `$filter`. */
export async function pinePatch<R extends ResourceName>(resource: R, target: { id: number } | { options: { $filter: Filter } }, body: Patch<R>): Promise<void> {
  await pine.patch({ resource, ...target, body });
}

/**
 * Rows a balena-sdk model method fetched with `query`, typed from our model: for the SDK's
 * methods that do more than a query (resolve a fleet by slug first…) but whose result types
 * predate fields our server returns (an invite's `created_at`, `expiry`).
 */
export async function sdkRows<R extends ResourceName, const Q extends Query<R>>(
  _resource: R,
  query: Q,
  fetch: (query: Q) => Promise<readonly object[]>,
): Promise<Result<R, Q>[]> {
  return (await fetch(query)) as Result<R, Q>[];
}
