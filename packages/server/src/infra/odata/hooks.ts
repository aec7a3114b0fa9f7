import type { FastifyRequest } from 'fastify';
import type { FieldDef, FieldOf, FieldValue, ResourceName } from '@flotilla/model';
import type { Db } from '../db/db.js';
import type { ConstraintMessages } from './db-errors.js';
import type { DataContext } from './permissions.js';
import { resourceInfo } from './resources.js';

/**
 * Business rules run as hooks on (resource, method) inside the write's transaction.
 * See README.md in this folder for the order of events. Each app has its own
 * `RuleRegistry` (buildApp makes one); the engine runs the hooks of the registry it is
 * given and hands them the app value (`App`: infra/app's AppContext) that goes with it.
 */

export type WriteMethod = 'POST' | 'PATCH' | 'DELETE';

/**
 * A model field as a hook sees it in the body: its row type (FKs as ids), a Date Time also as
 * a `Date` (what hooks set), and a WebResource as the server's StoredWebResource
 * (./web-resource.ts) rather than the shape the API shows.
 */
type BodyValue<F extends FieldDef> = F extends { type: 'WebResource' }
  ? unknown
  : F extends { type: 'Date Time' }
    ? FieldValue<F> | Date
    : FieldValue<F>;
type BodyFields<R extends ResourceName, Omitted extends string> = {
  [F in FieldOf<R> as F['name'] extends Omitted ? never : F['name']]?: BodyValue<F>;
};
type CreateOnly<R extends ResourceName> = Extract<FieldOf<R>, { writable: 'create' }>['name'];

/**
 * The body a hook on resource `R` and method `M` is given, typed from the model: POST, every
 * field of the row (what the client may write, PostBody, and the server-maintained fields
 * an earlier hook may have set); PATCH, the same without the create-only fields (Patch and
 * the server-maintained ones); all optional, and any other key as `unknown`. `A` names the
 * hook's `acceptFields`: extra fields, or model fields the client sends in another shape
 * (an invitation's `invitee` as an e-mail address), so `unknown` until `before` replaces
 * them. DELETE: `{}`. Without a resource (the engine's own view), any body.
 */
export type HookBody<R extends ResourceName = ResourceName, M extends WriteMethod = WriteMethod, A extends string = never> = [ResourceName] extends [R]
  ? Record<string, unknown>
  : R extends ResourceName
    ? M extends 'POST'
      ? BodyFields<R, A> & Record<string, unknown>
      : M extends 'PATCH'
        ? BodyFields<R, CreateOnly<R> | A> & Record<string, unknown>
        : Readonly<Record<string, never>>
    : never;

export interface HookArgs<App = unknown, R extends ResourceName = ResourceName, M extends WriteMethod = WriteMethod, A extends string = never> {
  /** The write's transaction: everything a hook does commits or rolls back with it. */
  tx: Db;
  /** The app the write runs in (its pool, bus, mailer, clock, config…). */
  app: App;
  /** Who is writing. Use `asRoot(actor)` for writes the rule makes on the system's behalf. */
  actor: DataContext;
  resource: string;
  method: M;
  /**
   * The validated request body (FKs as numbers). A `before` hook may change it: set
   * server-maintained fields (even `writable: 'never'` ones), translate accepted extra
   * fields, or throw an HttpError to reject the request. `{}` for DELETE.
   */
  body: HookBody<R, M, A>;
  /**
   * The rows concerned. PATCH/DELETE: the ids the caller may touch (computed with the
   * permission-filtered SELECT before `before` runs; possibly empty). POST: `[]` in
   * `before`, `[newId]` in `after`.
   */
  ids: readonly number[];
}

export interface Hook<App = unknown, R extends ResourceName = ResourceName, M extends WriteMethod = WriteMethod, A extends string = never> {
  before?(args: HookArgs<App, R, M, A>): void | Promise<void>;
  after?(args: HookArgs<App, R, M, A>): void | Promise<void>;
  /**
   * Body fields that are not model fields but that this hook's `before` understands and
   * removes (e.g. `username` in place of `user` on membership POSTs).
   */
  acceptFields?: readonly A[];
}

const NONE: readonly never[] = [];

/**
 * Told of every successful GET through the data API's HTTP route (RuleRegistry
 * .registerReadObserver), before the answer is sent: an audit trail records who read what.
 * `url` is relative to the API root as sent; `request` is the HTTP request (its actor, id).
 */
export type ReadObserver = (args: { request: FastifyRequest; db: Db; ctx: DataContext; url: string; prefix: string }) => Promise<void>;

/** Where a write through the data API came from: its HTTP request (actor, id) and URL as sent. */
export interface WriteOrigin {
  request: FastifyRequest;
  prefix: string;
  url: string;
}

/** Rows of one resource as they stand, by id: the row (its columns) and the organization it belongs to (null: none). */
export type RowSnapshot = ReadonlyMap<number, { organization: number | null; row: Record<string, unknown> }>;

/**
 * The audit log's view of every write through the data API's HTTP route
 * (RuleRegistry.setWriteAuditor; features/staff-audit): `snapshot` reads the rows concerned
 * before a PATCH/DELETE and after a POST/PATCH, `record` writes the log, all in the write's
 * own transaction, so an acknowledged write always has its row and a rolled-back one none.
 */
export interface WriteAuditor {
  snapshot(tx: Db, resource: string, ids: readonly number[]): Promise<RowSnapshot>;
  record(args: { tx: Db; ctx: DataContext; origin: WriteOrigin; resource: string; method: WriteMethod; ids: readonly number[]; before?: RowSnapshot; after?: RowSnapshot }): Promise<void>;
}

/** A rule on every write (RuleRegistry.registerWriteGuard). */
export type WriteGuard<App = unknown> = (args: HookArgs<App>) => void | Promise<void>;

export async function runWriteGuards<App>(guards: readonly WriteGuard<App>[], args: HookArgs<App>): Promise<void> {
  for (const g of guards) await g(args);
}

/**
 * The business rules of one app: hooks by (resource, method), in registration order, and
 * the rules' own messages for constraint violations.
 */
export class RuleRegistry<App = unknown> implements ConstraintMessages {
  private readonly hooks = new Map<string, Hook<App>[]>();
  private readonly constraintMessages = new Map<string, string>();
  private readonly referenceMessages = new Map<string, string>();
  private readonly guards: WriteGuard<App>[] = [];
  private readonly readers: ReadObserver[] = [];
  private auditor: WriteAuditor | undefined;

  /**
   * A rule every write through the data API passes, whatever its resource (a frozen
   * organization's fleets and devices refuse writes): run in the write's transaction before
   * the resource's own `before` hooks, with the rows concerned (PATCH/DELETE) or the body
   * (POST). It throws an HttpError to refuse. Returns a function that unregisters it.
   */
  registerWriteGuard(guard: WriteGuard<App>): () => void {
    this.guards.push(guard);
    return () => {
      const i = this.guards.indexOf(guard);
      if (i >= 0) this.guards.splice(i, 1);
    };
  }

  /** Adds a ReadObserver; returns a function that removes it. */
  registerReadObserver(observer: ReadObserver): () => void {
    this.readers.push(observer);
    return () => {
      const i = this.readers.indexOf(observer);
      if (i >= 0) this.readers.splice(i, 1);
    };
  }

  /** The audit log of the data API's writes (one per app); returns a function that removes it. */
  setWriteAuditor(auditor: WriteAuditor): () => void {
    this.auditor = auditor;
    return () => {
      if (this.auditor === auditor) this.auditor = undefined;
    };
  }

  writeAuditor(): WriteAuditor | undefined {
    return this.auditor;
  }

  readObservers(): readonly ReadObserver[] {
    return this.readers;
  }

  writeGuards(): readonly WriteGuard<App>[] {
    return this.guards;
  }

  /** A rule's own 409 message for a violation (23505/23503) of `constraint`, in place of the generic one. */
  registerConstraintMessage(constraint: string, message: string): void {
    this.constraintMessages.set(constraint, message);
  }

  constraintMessage(constraint: string): string | undefined {
    return this.constraintMessages.get(constraint);
  }


  /**
   * A rule's own 400 message for a foreign key `field` of `resource` that names a row the
   * caller may not read (or no row at all), in place of the engine's 401: for a field whose
   * rule refuses every row outside a public set with one message anyway, so the answer is
   * the same whether the row exists, is another tenant's or is merely the wrong kind.
   */
  registerReferenceMessage<R extends ResourceName>(resource: R, field: FieldOf<R>['name'], message: string): void {
    this.referenceMessages.set(`${resource}.${field}`, message);
  }

  referenceMessage(resource: string, field: string): string | undefined {
    return this.referenceMessages.get(`${resource}.${field}`);
  }

  /**
   * Registers a hook; returns a function that unregisters it (for tests). PUT runs PATCH hooks.
   * The hook's `body` is typed from the model for `resource` and `method` (HookBody).
   */
  register<R extends ResourceName, M extends WriteMethod, A extends string = never>(resource: R, method: M, hook: Hook<App, R, M, A>): () => void {
    resourceInfo(resource); // fails fast on a misspelt resource
    // Kept by (resource, method), so the hook is only ever run on bodies of its own resource
    // and method: the HookBody its signature names.
    const stored = hook as unknown as Hook<App>;
    const key = `${resource} ${method}`;
    const list = this.hooks.get(key) ?? [];
    list.push(stored);
    this.hooks.set(key, list);
    return () => {
      const current = this.hooks.get(key);
      const i = current?.indexOf(stored) ?? -1;
      if (current && i >= 0) current.splice(i, 1);
    };
  }

  hooksFor(resource: string, method: WriteMethod): readonly Hook<App>[] {
    return this.hooks.get(`${resource} ${method}`) ?? NONE;
  }
}

/** What a write runs against: an app value carrying its rule registry (infra/app's AppContext). */
export interface RuleHost<App> {
  readonly rules: RuleRegistry<App>;
}

export function acceptedFields<App>(hooks: readonly Hook<App>[]): ReadonlySet<string> {
  const s = new Set<string>();
  for (const h of hooks) for (const f of h.acceptFields ?? []) s.add(f);
  return s;
}

export async function runHooks<App>(hooks: readonly Hook<App>[], phase: 'before' | 'after', args: HookArgs<App>): Promise<void> {
  for (const h of hooks) await h[phase]?.(args);
}
