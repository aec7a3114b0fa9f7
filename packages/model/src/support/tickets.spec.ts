import { describe, expect, it } from 'vitest';
import { DEFAULT_CATALOGUE } from '../billing/catalogue.js';
import {
  attachmentProblem,
  optionValueOf,
  parseCcEmails,
  replyProblem,
  SUPPORT_ATTACHMENT_MAX_BYTES,
  SUPPORT_CC_MAX,
  SUPPORT_MESSAGES as M,
  supportRefusal,
  ticketFieldProblem,
  ticketProblems,
  type TicketField,
  type TicketFieldInput,
} from './tickets.js';

const fields: TicketField[] = [
  { id: 1, type: 'subject', title: 'Subject', title_in_portal: 'Subject', required_in_portal: true, active: true, position: 1, custom_field_options: null },
  { id: 2, type: 'description', title: 'Description', title_in_portal: 'Description', required_in_portal: true, active: true, position: 2, custom_field_options: null },
  {
    id: 3,
    type: 'tagger',
    title: 'Category',
    title_in_portal: 'Category',
    required_in_portal: true,
    active: true,
    position: 3,
    custom_field_options: [
      { name: 'Devices', value: 'devices' },
      { name: 'Billing', value: 'billing' },
    ],
  },
  { id: 4, type: 'date', title: 'Since', title_in_portal: 'Since when?', required_in_portal: false, active: true, position: 4, custom_field_options: null },
  { id: 5, type: 'checkbox', title: 'Prod', title_in_portal: 'Production affected', required_in_portal: false, active: true, position: 5, custom_field_options: null },
  { id: 6, type: 'text', title: 'Old', title_in_portal: 'Old', required_in_portal: true, active: false, position: 6, custom_field_options: null },
];

const good = { subject: 'Device offline', comment: { body: 'It stopped', uploads: ['tok'] }, custom_fields: [{ id: 3, value: 'devices' }] };

describe('ticket submissions (spec 3 §5)', () => {
  it('accepts a ticket that fills the required active fields', () => {
    expect(ticketProblems(fields, good)).toEqual({});
    expect(ticketProblems(fields, { ...good, custom_fields: [...good.custom_fields, { id: 4, value: '2026-02-28' }, { id: 5, value: true }] })).toEqual({});
  });
  it('shows the blank message on each required field left empty (inactive fields are not asked)', () => {
    expect(ticketProblems(fields, { subject: ' ', comment: { body: '' }, custom_fields: [] })).toEqual({ subject: M.blank, description: M.blank, '3': M.blank });
  });
  it('refuses values that do not fit the field', () => {
    expect(ticketProblems(fields, { ...good, custom_fields: [{ id: 3, value: 'other' }] })).toEqual({ '3': M.notAnOption });
    expect(ticketProblems(fields, { ...good, custom_fields: [...good.custom_fields, { id: 4, value: '2026-02-30' }] })).toEqual({ '4': M.notADate });
    expect(ticketProblems(fields, { ...good, custom_fields: [...good.custom_fields, { id: 5, value: 'yes' }] })).toEqual({ '5': M.notABoolean });
    expect(ticketProblems(fields, { ...good, subject: 'x'.repeat(256) })).toEqual({ subject: M.tooLong(255) });
  });
  it('refuses unknown, inactive and repeated fields', () => {
    expect(ticketProblems(fields, { ...good, custom_fields: [...good.custom_fields, { id: 6, value: 'x' }] })).toEqual({ '6': M.unknownField(6) });
    expect(ticketProblems(fields, { ...good, custom_fields: [...good.custom_fields, { id: 3, value: 'billing' }] })).toEqual({ '3': M.fieldGivenTwice(3) });
  });
  it('checks and bounds cc addresses and attachments', () => {
    expect(ticketProblems(fields, { ...good, email_ccs: [{ user_email: 'a@example.com' }] })).toEqual({});
    expect(ticketProblems(fields, { ...good, email_ccs: [{ user_email: 'not-an-email' }] })).toEqual({ email_ccs: M.invalidCc('not-an-email') });
    const many = Array.from({ length: SUPPORT_CC_MAX + 1 }, (_, i) => ({ user_email: `u${i}@example.com` }));
    expect(ticketProblems(fields, { ...good, email_ccs: many })).toEqual({ email_ccs: M.tooManyCcs });
    expect(ticketProblems(fields, { ...good, comment: { body: 'x', uploads: Array.from({ length: 11 }, (_, i) => `t${i}`) } })).toEqual({ uploads: M.tooManyAttachments });
  });
  it('limits each attachment to 5 MB', () => {
    expect(attachmentProblem(SUPPORT_ATTACHMENT_MAX_BYTES)).toBeUndefined();
    expect(attachmentProblem(SUPPORT_ATTACHMENT_MAX_BYTES + 1)).toBe(M.attachmentTooLarge);
    expect(M.attachmentTooLarge).toContain('5 MB');
  });
  it('reads cc addresses separated by commas, spaces or lines, once each', () => {
    expect(parseCcEmails('a@x.io, b@x.io;\nA@x.io  c@x.io')).toEqual(['a@x.io', 'b@x.io', 'c@x.io']);
    expect(parseCcEmails('  ')).toEqual([]);
  });
});

describe('ticket field definitions (issue 19)', () => {
  const select: TicketFieldInput = { type: 'tagger', title: 'Area', title_in_portal: 'Area', required_in_portal: false, active: true, custom_field_options: [{ name: 'A', value: 'a' }] };
  it('accepts a valid select and text field', () => {
    expect(ticketFieldProblem(select)).toBeUndefined();
    expect(ticketFieldProblem({ ...select, type: 'text', custom_field_options: null })).toBeUndefined();
  });
  it('needs titles, options only on selects, valid unique option values', () => {
    expect(ticketFieldProblem({ ...select, title: ' ' })).toBe(M.fieldTitle);
    expect(ticketFieldProblem({ ...select, custom_field_options: [] })).toBe(M.optionsNeeded);
    expect(ticketFieldProblem({ ...select, type: 'text' })).toBe(M.optionsNotAllowed);
    expect(ticketFieldProblem({ ...select, custom_field_options: [{ name: 'A', value: 'A B' }] })).toBe(M.optionValue);
    expect(ticketFieldProblem({ ...select, custom_field_options: [{ name: 'A', value: 'a' }, { name: 'B', value: 'a' }] })).toBe(M.optionValueTwice('a'));
    expect(ticketFieldProblem({ ...select, type: 'number' as never })).toBe(M.fieldType);
  });
  it('keeps the subject and description: no second one, always active and required, type fixed', () => {
    const subject: TicketFieldInput = { type: 'subject', title: 'Subject', title_in_portal: 'Summary', required_in_portal: true, active: true, custom_field_options: null };
    expect(ticketFieldProblem(subject)).toBe(M.systemFieldType);
    expect(ticketFieldProblem(subject, { type: 'subject' })).toBeUndefined();
    expect(ticketFieldProblem({ ...subject, active: false }, { type: 'subject' })).toBe(M.systemFieldFixed);
    expect(ticketFieldProblem({ ...select, type: 'text', custom_field_options: null }, { type: 'tagger' })).toBe(M.fieldTypeFixed);
  });
  it('makes option values from names', () => {
    expect(optionValueOf('Devices & fleets')).toBe('devices_fleets');
  });
});

describe('who may open a private ticket (spec 3 §1/§5)', () => {
  const plan = (code: string) => {
    const p = DEFAULT_CATALOGUE.plans.find((x) => x.code === code)!;
    return { code: p.code, includes: p.includes };
  };
  it('needs a paid plan and a verified email while billing is on', () => {
    expect(supportRefusal(true, plan('free'), true)).toBe('paid_plan');
    expect(supportRefusal(true, plan('pilot-v2'), false)).toBe('verify_email');
    expect(supportRefusal(true, plan('pilot-v2'), true)).toBeNull();
  });
  it('is open to every verified member while billing is off', () => {
    expect(supportRefusal(false, null, true)).toBeNull();
    expect(supportRefusal(false, null, false)).toBe('verify_email');
  });
  it('checks replies', () => {
    expect(replyProblem('  ')).toBe(M.replyBlank);
    expect(replyProblem('Thanks')).toBeUndefined();
  });
});
