/**
 * The one definition of every resource. The server derives its schema (migrations),
 * OData exposure and permission checks from these declarations; the web and agent
 * packages import the same types and constants.
 */

export type FieldType =
  | 'Serial' // integer primary key
  | 'Integer'
  | 'Big Integer'
  | 'Real'
  | 'Boolean'
  | 'Short Text' // varchar(255)
  | 'Text'
  | 'Date Time' // timestamptz
  | 'JSON'
  // A stored file (balena's WebResource): the API shows `{filename, content_type, size, href}`,
  // `href` a signed link the server makes when the row is read; written only as an upload.
  | 'WebResource'
  | 'ForeignKey'; // integer referencing another resource's id

export interface FieldDef {
  /** OData name; also the column name. */
  name: string;
  type: FieldType;
  /** NOT NULL in the database; POST must supply it unless a default exists. */
  required?: boolean;
  /** SQL default expression, e.g. `now()` or `false`. */
  default?: string;
  /** Target resource of a ForeignKey. */
  references?: string;
  /** What the database does when the referenced row is deleted. Default: restrict. */
  onDelete?: 'cascade' | 'set null' | 'restrict';
  /**
   * Secret columns (password hashes, key material) never cross the data API: they are
   * not selectable, filterable, orderable or writable through /v7, not even by the owner.
   */
  secret?: boolean;
  /**
   * Private fields are readable only where the caller's `resin.<resource>.read-private`
   * condition holds; elsewhere they read as null (in `$select`, `$expand`, `$filter`,
   * `$orderby`), so nobody can probe them by filtering or ordering. Writes are governed by
   * the write permissions alone. Not for ForeignKey or Serial fields.
   */
  private?: true;
  /**
   * Who may write the field through the data API:
   *  - 'always' (default): POST and PATCH
   *  - 'create': POST only
   *  - 'never': server-maintained (hooks, custom endpoints)
   */
  writable?: 'always' | 'create' | 'never';
  /** Maximum length for text fields. */
  maxLength?: number;
  /** Allowed values. */
  enum?: readonly string[];
}

/** A to-many navigation: rows of `resource` whose `via` column points at this row. */
export interface ReverseNavigationDef {
  name: string;
  resource: string;
  via: string;
}

/**
 * `read-private`: reading the `private` fields of a readable row. `resin.x.all` implies it;
 * an unconditional `resin.x.read` does not.
 */
export type Action = 'read' | 'read-private' | 'create' | 'update' | 'delete';

export interface ResourceDef {
  /** OData resource name, also the table name. */
  name: string;
  /** Other names the data API accepts for this resource (dialect §3: `release_image`). */
  synonyms?: string[];
  fields: FieldDef[];
  /** To-many navigations (to-one navigations are the ForeignKey fields themselves). */
  reverse?: ReverseNavigationDef[];
  /** Alternate keys usable in the key path: `organization(handle='x')`. */
  alternateKeys?: string[][];
  /** Unique constraints (each a list of fields). Alternate keys are unique too. */
  unique?: string[][];
  /** Case-insensitive unique constraints (unique index on lower(field)). */
  uniqueCaseInsensitive?: string[][];
  /** Extra indexes (each a list of fields) the common queries need. */
  indexes?: string[][];
}

export type Model = Record<string, ResourceDef>;
