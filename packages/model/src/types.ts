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
  /**
   * ForeignKey only: the row of `references` that a POST leaving the field out refers to,
   * named by an alternate key of that resource (balena's defaults, e.g. `{ name: 'developer' }`
   * for a fleet membership's role). The data layer fills it in after the `before` hooks.
   */
  defaultReference?: Readonly<Record<string, string>>;
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
   * Who may write the field through the data API (within the resource's write permissions):
   *  - 'always' (default): POST and PATCH. Fields the device reports (dialect §4.3) are
   *    'always' too, as in balena: a user with write rights on the device may set them, and
   *    the device's next report overwrites them.
   *  - 'create': POST only
   *  - 'never': server-maintained (hooks, custom endpoints, generated and computed columns)
   */
  writable?: 'always' | 'create' | 'never';
  /**
   * Left out of a read unless `$select` names it (balena does this for large text fields: an
   * image's build log). Filters and ordering may still use it.
   */
  onlyWhenSelected?: true;
  /**
   * A computed field (dialect §3 "computed"): no column; its value is this SQL expression over
   * the row, `{row}` standing for the row's alias (`coalesce({row}."a", {row}."b")`). Readable
   * like any field ($select, $filter, $orderby, and `$expand` when it is a ForeignKey), never
   * writable. The expression is trusted code and reads what it names without permission checks.
   */
  computed?: string;
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
export type Action = 'read' | 'read-private' | 'create' | 'update' | 'delete' | DeviceOperation;

/**
 * Live operations on a device that are rights of their own (spec 2 §6), checked on the device
 * row like an update: `resin.device.<operation>` rules in roles.ts (see
 * roles/fleet-permissions.ts `DEVICE_OPERATIONS` for the spec's permission names).
 */
export type DeviceOperation = 'ssh' | 'ssh-host' | 'access_diagnostics' | 'delete_logs';

export interface ResourceDef {
  /** OData resource name, also the table name. */
  name: string;
  /** Other names the data API accepts for this resource (dialect §3: `release_image`). */
  synonyms?: readonly string[];
  fields: readonly FieldDef[];
  /** To-many navigations (to-one navigations are the ForeignKey fields themselves). */
  reverse?: readonly ReverseNavigationDef[];
  /** Alternate keys usable in the key path: `organization(handle='x')`. */
  alternateKeys?: readonly (readonly string[])[];
  /** Unique constraints (each a list of fields). Alternate keys are unique too. */
  unique?: readonly (readonly string[])[];
  /** Case-insensitive unique constraints (unique index on lower(field)). */
  uniqueCaseInsensitive?: readonly (readonly string[])[];
  /** Extra indexes (each a list of fields) the common queries need. */
  indexes?: readonly (readonly string[])[];
}

export type Model = Record<string, ResourceDef>;
