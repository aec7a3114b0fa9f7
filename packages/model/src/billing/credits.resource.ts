import type { ResourceDef } from '../types.js';
import { CREDIT_BUNDLE_STATUSES } from './rules.js';

/**
 * Spec 3 §3/§4 credits (issue 18 item 7), in balena's v7 shape (balena-sdk `models.creditBundle`).
 * A bundle is one purchase of prepaid device credits: the client sends the organization, the
 * feature (`credits:device`) and the quantity; the server prices it from the organization's
 * plan, charges it through the payment provider and writes everything else (a hook). A failed
 * purchase is kept with `payment_status 'failed'` and the provider's `error_message`, as
 * balena does; only paid, complimentary and manually invoiced bundles count (rules.ts).
 */
export const credit_bundle = {
  name: 'credit_bundle',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'modified_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'belongs_to__organization', type: 'ForeignKey', references: 'organization', required: true, writable: 'create', onDelete: 'cascade' },
    { name: 'is_for__feature', type: 'ForeignKey', references: 'feature', required: true, writable: 'create' },
    { name: 'original_quantity', type: 'Integer', required: true, writable: 'create' },
    { name: 'is_created_by__user', type: 'ForeignKey', references: 'user', writable: 'never', onDelete: 'set null' },
    { name: 'payment_status', type: 'Short Text', required: true, default: "'processing'", writable: 'never', enum: CREDIT_BUNDLE_STATUSES },
    // Cents: the plan's price of one credit when bought, and quantity × that.
    { name: 'unit_cost', type: 'Integer', required: true, default: '0', writable: 'never' },
    { name: 'total_cost', type: 'Integer', required: true, default: '0', writable: 'never' },
    // What is left: total_balance counts down as credits are consumed; available_balance is
    // the part still usable (0 while not paid, and once expired).
    { name: 'total_balance', type: 'Integer', required: true, default: '0', writable: 'never' },
    { name: 'available_balance', type: 'Integer', required: true, default: '0', writable: 'never' },
    { name: 'expires_on__date', type: 'Date Time', required: true, writable: 'never' },
    // The invoice number (FLT-000001) that bills it, when one does.
    { name: 'is_associated_with__invoice_id', type: 'Short Text', writable: 'never' },
    { name: 'error_message', type: 'Text', writable: 'never' },
  ],
  indexes: [['belongs_to__organization']],
} as const satisfies ResourceDef;

/**
 * Spec 3 §4/§5 credit notification: mail the organization's billing contacts once when its
 * available credits fall below the threshold (the dashboard's toggle creates or deletes it).
 * `is_notified` is the server's record of a mail sent for the current dip (reset when the
 * balance is back at or over the threshold).
 */
export const organization_credit_notification = {
  name: 'organization_credit_notification',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'organization', type: 'ForeignKey', references: 'organization', required: true, writable: 'create', onDelete: 'cascade' },
    { name: 'owns_credit_notification_for__feature', type: 'ForeignKey', references: 'feature', required: true, writable: 'create' },
    { name: 'is_sent_when_below__threshold', type: 'Integer', required: true },
    { name: 'is_notified', type: 'Boolean', required: true, default: 'false', writable: 'never' },
  ],
  unique: [['organization', 'owns_credit_notification_for__feature']],
} as const satisfies ResourceDef;
