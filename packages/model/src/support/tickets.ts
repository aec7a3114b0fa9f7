import { isValidEmail } from '../common/validation.js';
import { BILLING_LIMIT_MESSAGES, supportProblem, type PlanLimits } from '../billing/limits.js';

/**
 * Issue 19 item 1 (spec 3 §2 Support, §3 support ticket, §5, §9): the built-in helpdesk's
 * rules. The server enforces them on `/zendesk/v1/{org}/submit-ticket`, `/upload-attachment`
 * and the staff field editor; the dashboard's ticket form and `/admin` section mirror them
 * with these same functions.
 */

/** Spec 3 §5/§9: each attachment at most 5 MB (read as MiB, as Zendesk counts; docs/decisions.md). */
export const SUPPORT_ATTACHMENT_LIMIT_MB = 5;
export const SUPPORT_ATTACHMENT_MAX_BYTES = SUPPORT_ATTACHMENT_LIMIT_MB * 1024 * 1024;
/** Most attachments, cc addresses and fields one ticket may carry. */
export const SUPPORT_ATTACHMENTS_MAX = 10;
export const SUPPORT_CC_MAX = 10;
export const SUPPORT_FIELDS_MAX = 50;
/** Longest values: a one-line field (and the subject), a text area (and the description). */
export const SUPPORT_TEXT_MAX = 255;
export const SUPPORT_TEXTAREA_MAX = 20_000;
/** A select field's options: how many, and their bounds. */
export const SUPPORT_OPTIONS_MAX = 50;
export const SUPPORT_OPTION_NAME_MAX = 100;
export const SUPPORT_FIELD_TITLE_MAX = 100;
/** A reply from a support agent. */
export const SUPPORT_REPLY_MAX = 20_000;
/** Rows one ticket list answers. */
export const SUPPORT_TICKETS_PAGE_MAX = 100;

/**
 * Zendesk's field types: `subject` and `description` are the ticket's own (one each, always
 * shown and required); the others are custom fields. `tagger` is a single select.
 */
export const TICKET_FIELD_TYPES = ['subject', 'description', 'text', 'textarea', 'tagger', 'checkbox', 'date'] as const;
export type TicketFieldType = (typeof TICKET_FIELD_TYPES)[number];
export const SYSTEM_TICKET_FIELD_TYPES: readonly TicketFieldType[] = ['subject', 'description'];
export const isSystemTicketField = (type: string): boolean => (SYSTEM_TICKET_FIELD_TYPES as readonly string[]).includes(type);

export interface TicketFieldOption {
  /** What the requester sees. */
  name: string;
  /** What is stored (Zendesk's tag): lower-case letters, digits, `_`, `-`, `:`. */
  value: string;
}

/** One field as `GET /zendesk/v1/{org}/ticket-fields` answers it (Zendesk's ticket field shape). */
export interface TicketField {
  id: number;
  type: TicketFieldType;
  /** The agents' title. */
  title: string;
  /** What the ticket form shows. */
  title_in_portal: string;
  required_in_portal: boolean;
  active: boolean;
  position: number;
  /** A `tagger` field's options; null for the other types. */
  custom_field_options: TicketFieldOption[] | null;
}

/** What a platform administrator sends to add or edit a field. */
export interface TicketFieldInput {
  type: TicketFieldType;
  title: string;
  title_in_portal: string;
  required_in_portal: boolean;
  active: boolean;
  custom_field_options: TicketFieldOption[] | null;
}

export const TICKET_STATUSES = ['open', 'answered', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/**
 * A ticket as a Zendesk client submits it (the Requests API's shape): the ticket's own
 * fields (`subject`, `comment.body`), `custom_fields` by field id, `email_ccs` and the
 * upload tokens in `comment.uploads`.
 */
export interface TicketSubmission {
  subject: string;
  comment: { body: string; uploads?: string[] };
  custom_fields?: { id: number; value: string | boolean | null }[];
  email_ccs?: { user_email: string }[];
}

export const SUPPORT_MESSAGES = {
  /** Spec 3 §5: "required fields show a blank message". */
  blank: 'This field cannot be blank',
  tooLong: (max: number) => `At most ${max.toLocaleString('en-US')} characters`,
  notAnOption: 'Choose one of the options',
  notADate: 'Enter a date as YYYY-MM-DD',
  notABoolean: 'Must be true or false',
  unknownField: (id: number) => `There is no ticket field ${id}`,
  fieldGivenTwice: (id: number) => `Ticket field ${id} is given twice`,
  invalidCc: (email: string) => `'${email}' is not a valid e-mail address`,
  tooManyCcs: `At most ${SUPPORT_CC_MAX} addresses can be copied`,
  tooManyAttachments: `At most ${SUPPORT_ATTACHMENTS_MAX} attachments per ticket`,
  /** Spec 3 §5/§8: the attachment limit error, with the limit. */
  attachmentTooLarge: `Attachments can be at most ${SUPPORT_ATTACHMENT_LIMIT_MB} MB each`,
  unknownUpload: 'An attachment was not found: upload it again',
  fieldTitle: `A title of 1 to ${SUPPORT_FIELD_TITLE_MAX} characters is needed`,
  fieldType: `The type must be one of ${TICKET_FIELD_TYPES.join(', ')}`,
  optionsNeeded: 'A select field needs at least one option',
  optionsNotAllowed: 'Only select fields have options',
  tooManyOptions: `At most ${SUPPORT_OPTIONS_MAX} options`,
  optionName: `Each option needs a name of 1 to ${SUPPORT_OPTION_NAME_MAX} characters`,
  optionValue: 'Each option value must be 1 to 80 lower-case letters, digits, _, - or :',
  optionValueTwice: (value: string) => `The option value '${value}' is given twice`,
  systemFieldFixed: 'The subject and description fields are always shown and required; only their titles can change',
  systemFieldType: 'There is already a subject and a description field',
  fieldTypeFixed: 'The type of a field cannot change',
  tooManyFields: `At most ${SUPPORT_FIELDS_MAX} ticket fields`,
  replyBlank: 'Write a reply',
  replyTooLong: `A reply can be at most ${SUPPORT_REPLY_MAX.toLocaleString('en-US')} characters`,
  closed: 'This ticket is closed: reopen it to reply',
  fieldNotFound: 'Ticket field not found',
  ticketNotFound: 'Ticket not found',
  verifyEmail: 'Private support needs a verified email address. Verify your email address first.',
  staffOnly: 'Only support agents and platform administrators can do this',
  administratorsOnly: 'Only platform administrators can change ticket fields',
} as const;

const OPTION_VALUE = /^[a-z0-9_:-]{1,80}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const trimmed = (s: unknown): string => (typeof s === 'string' ? s.trim() : '');

function titleProblem(title: unknown): string | undefined {
  const t = trimmed(title);
  return t.length === 0 || t.length > SUPPORT_FIELD_TITLE_MAX ? SUPPORT_MESSAGES.fieldTitle : undefined;
}

/**
 * What is wrong with a field definition (undefined: nothing). `existing` is the stored field
 * when editing one: its type cannot change, and the subject and description stay active and
 * required.
 */
export function ticketFieldProblem(input: TicketFieldInput, existing?: Pick<TicketField, 'type'>): string | undefined {
  if (!(TICKET_FIELD_TYPES as readonly string[]).includes(input.type)) return SUPPORT_MESSAGES.fieldType;
  if (existing && existing.type !== input.type) return SUPPORT_MESSAGES.fieldTypeFixed;
  if (!existing && isSystemTicketField(input.type)) return SUPPORT_MESSAGES.systemFieldType;
  const problem = titleProblem(input.title) ?? titleProblem(input.title_in_portal);
  if (problem) return problem;
  if (isSystemTicketField(input.type) && (!input.active || !input.required_in_portal)) return SUPPORT_MESSAGES.systemFieldFixed;
  const options = input.custom_field_options;
  if (input.type !== 'tagger') return options && options.length > 0 ? SUPPORT_MESSAGES.optionsNotAllowed : undefined;
  if (!options || options.length === 0) return SUPPORT_MESSAGES.optionsNeeded;
  if (options.length > SUPPORT_OPTIONS_MAX) return SUPPORT_MESSAGES.tooManyOptions;
  const seen = new Set<string>();
  for (const o of options) {
    const name = trimmed(o.name);
    if (name.length === 0 || name.length > SUPPORT_OPTION_NAME_MAX) return SUPPORT_MESSAGES.optionName;
    if (typeof o.value !== 'string' || !OPTION_VALUE.test(o.value)) return SUPPORT_MESSAGES.optionValue;
    if (seen.has(o.value)) return SUPPORT_MESSAGES.optionValueTwice(o.value);
    seen.add(o.value);
  }
  return undefined;
}

/** An option value made from its name (the field editor fills it in). */
export function optionValueOf(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9_:-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 80);
}

/** The problems of a submitted ticket: per field id (`subject`, `description`, a custom field's id, `email_ccs`, `uploads`). */
export type TicketProblems = Record<string, string>;

function dateValid(value: string): boolean {
  if (!DATE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

function valueProblem(field: TicketField, value: unknown): string | undefined {
  const empty = value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (field.type === 'checkbox' && value === false);
  if (empty) return field.required_in_portal ? SUPPORT_MESSAGES.blank : undefined;
  switch (field.type) {
    case 'checkbox':
      return typeof value === 'boolean' ? undefined : SUPPORT_MESSAGES.notABoolean;
    case 'tagger':
      return typeof value === 'string' && (field.custom_field_options ?? []).some((o) => o.value === value) ? undefined : SUPPORT_MESSAGES.notAnOption;
    case 'date':
      return typeof value === 'string' && dateValid(value) ? undefined : SUPPORT_MESSAGES.notADate;
    default: {
      if (typeof value !== 'string') return SUPPORT_MESSAGES.blank;
      const max = field.type === 'textarea' || field.type === 'description' ? SUPPORT_TEXTAREA_MAX : SUPPORT_TEXT_MAX;
      return value.trim().length > max ? SUPPORT_MESSAGES.tooLong(max) : undefined;
    }
  }
}

/**
 * Checks a submitted ticket against the active fields (spec 3 §5): required fields are not
 * blank, values fit their type, select values are options, no unknown or inactive field, cc
 * addresses valid and at most SUPPORT_CC_MAX, at most SUPPORT_ATTACHMENTS_MAX uploads. Empty
 * object: nothing wrong.
 */
export function ticketProblems(fields: readonly TicketField[], ticket: TicketSubmission): TicketProblems {
  const problems: TicketProblems = {};
  const active = fields.filter((f) => f.active);
  const byId = new Map(active.filter((f) => !isSystemTicketField(f.type)).map((f) => [f.id, f]));
  const given = new Map<number, unknown>();
  for (const c of ticket.custom_fields ?? []) {
    if (!byId.has(c.id)) problems[String(c.id)] = SUPPORT_MESSAGES.unknownField(c.id);
    else if (given.has(c.id)) problems[String(c.id)] = SUPPORT_MESSAGES.fieldGivenTwice(c.id);
    else given.set(c.id, c.value);
  }
  for (const f of active) {
    const value = f.type === 'subject' ? ticket.subject : f.type === 'description' ? ticket.comment?.body : given.get(f.id);
    const key = isSystemTicketField(f.type) ? f.type : String(f.id);
    const problem = valueProblem({ ...f, required_in_portal: f.required_in_portal || isSystemTicketField(f.type) }, value);
    if (problem && !problems[key]) problems[key] = problem;
  }
  const ccs = ticket.email_ccs ?? [];
  if (ccs.length > SUPPORT_CC_MAX) problems.email_ccs = SUPPORT_MESSAGES.tooManyCcs;
  else {
    const bad = ccs.find((c) => typeof c?.user_email !== 'string' || c.user_email.length > 254 || !isValidEmail(c.user_email.trim()));
    if (bad) problems.email_ccs = SUPPORT_MESSAGES.invalidCc(String(bad?.user_email ?? ''));
  }
  if ((ticket.comment?.uploads ?? []).length > SUPPORT_ATTACHMENTS_MAX) problems.uploads = SUPPORT_MESSAGES.tooManyAttachments;
  return problems;
}

/** Spec 3 §5/§8: a file over the attachment limit (undefined: it fits). */
export function attachmentProblem(size: number): string | undefined {
  return size > SUPPORT_ATTACHMENT_MAX_BYTES ? SUPPORT_MESSAGES.attachmentTooLarge : undefined;
}

/** Cc addresses as the form takes them (commas, semicolons, spaces or new lines between them), de-duplicated. */
export function parseCcEmails(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of text.split(/[\s,;]+/)) {
    const email = part.trim();
    if (email === '' || seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    out.push(email);
  }
  return out;
}

/** Why the requester cannot open a private ticket. */
export type SupportRefusal = 'paid_plan' | 'verify_email';

/**
 * Spec 3 §1/§5: private support needs a paid plan (whose plan includes `support:private`) and
 * a verified email. With billing off (`plan` undefined) support is open to every member with
 * a verified email. Null: allowed.
 */
export function supportRefusal(billingOn: boolean, plan: PlanLimits | null, emailVerified: boolean): SupportRefusal | null {
  if (billingOn) {
    const problem = supportProblem(plan, emailVerified);
    if (problem === BILLING_LIMIT_MESSAGES.supportNeedsPaidPlan) return 'paid_plan';
    if (problem !== null) return 'verify_email';
    return null;
  }
  return emailVerified ? null : 'verify_email';
}

/** The server's message for a refusal. */
export function supportRefusalMessage(refusal: SupportRefusal): string {
  return refusal === 'paid_plan' ? BILLING_LIMIT_MESSAGES.supportNeedsPaidPlan : SUPPORT_MESSAGES.verifyEmail;
}

/** What is wrong with a support agent's reply (undefined: nothing). */
export function replyProblem(body: unknown): string | undefined {
  const text = trimmed(body);
  if (text === '') return SUPPORT_MESSAGES.replyBlank;
  if (text.length > SUPPORT_REPLY_MAX) return SUPPORT_MESSAGES.replyTooLong;
  return undefined;
}
