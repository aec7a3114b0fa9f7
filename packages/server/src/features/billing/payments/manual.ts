import { BILLING_MESSAGES } from '@flotilla/model';
import type { Db } from '../../../infra/db/db.js';
import { BadRequestError } from '../../../infra/errors.js';
import type { BillingCustomer, BillingDetails, BillingInfo, ChargeRequest, ChargeResult, PaymentProvider } from './provider.js';
import { deleteBillingInfo, selectBillingInfo, upsertBillingInfo } from './payments.repository.js';

/**
 * The manual provider (issue 18 item 5): bank transfer or purchase order. Setting it up records
 * the choice (`token_type: 'manual'`, token_id anything, e.g. a purchase order number) with the
 * billing address; `getBillingInfo` then shows `{ type: 'manual', …address }`. A charge leaves
 * the invoice pending until a platform administrator marks it paid in /admin, when the money
 * has arrived.
 */
export class ManualPaymentProvider implements PaymentProvider {
  readonly kind = 'manual' as const;
  constructor(private readonly db: Db) {}

  async createSetupIntent(): Promise<{ id: string; client_secret: string }> {
    throw new BadRequestError(BILLING_MESSAGES.manualSetupNotNeeded);
  }

  async attachPaymentMethod(customer: BillingCustomer, token: { token_type: string; token_id: string }, details: BillingDetails): Promise<BillingInfo> {
    if (token.token_type !== 'manual') throw new BadRequestError(BILLING_MESSAGES.manualTokenOnly);
    const info: BillingInfo = { ...((await selectBillingInfo(this.db, customer.organizationId)) ?? {}), ...details, type: 'manual' };
    await upsertBillingInfo(this.db, customer.organizationId, 'manual', info);
    return info;
  }

  async getPaymentMethod(customer: BillingCustomer): Promise<BillingInfo | null> {
    return selectBillingInfo(this.db, customer.organizationId);
  }

  async removePaymentMethod(customer: BillingCustomer): Promise<void> {
    await deleteBillingInfo(this.db, customer.organizationId);
  }

  async charge(_customer: BillingCustomer, request: ChargeRequest): Promise<ChargeResult> {
    return { status: 'pending', reference: `manual:${request.invoiceNumber}` };
  }

  async refund(): Promise<void> {
    // Money sent back by bank transfer is the operator's business; the invoice records it.
  }
}
