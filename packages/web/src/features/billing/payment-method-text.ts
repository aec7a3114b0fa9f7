import type { TFunction } from 'i18next';
import type { PaymentMethod } from './api/billing-api';

/** Spec 3 §9 known card brands; anything else is 'unknown'. */
const CARD_BRANDS: Record<string, string> = {
  amex: 'American Express',
  'american express': 'American Express',
  american_express: 'American Express',
  discover: 'Discover',
  mastercard: 'MasterCard',
  visa: 'Visa',
};
export function cardBrand(cardType: string | null | undefined): string | null {
  return CARD_BRANDS[(cardType ?? '').toLowerCase()] ?? null;
}

/** Spec 3 §2: the method as shown (card, bank account, PayPal, Cash App, Link, or pay by invoice). */
export function paymentMethodText(info: PaymentMethod, t: TFunction): string {
  switch (info.type) {
    case 'card':
    case 'credit_card':
      return t('billing.payment.card', {
        brand: cardBrand(info.card_type) ?? t('billing.payment.brand_unknown'),
        last4: info.last_four ?? '',
        month: String(info.month ?? '').padStart(2, '0'),
        year: String(info.year ?? ''),
      });
    case 'bank_account':
    case 'us_bank_account':
    case 'sepa_debit':
      return t('billing.payment.bank', { last4: info.last_four ?? '' });
    case 'paypal':
      return t('billing.payment.paypal');
    case 'cashapp':
      return t('billing.payment.cashapp');
    case 'link':
      return t('billing.payment.link');
    default:
      return t('billing.payment.manual');
  }
}

/** The billing address as lines (empty parts left out). */
export function addressLines(info: PaymentMethod): string[] {
  const name = info.full_name ?? [info.first_name, info.last_name].filter(Boolean).join(' ');
  const cityLine = [info.zip, info.city, info.state].filter(Boolean).join(' ');
  return [name, info.company, info.address1, info.address2, cityLine, info.country, info.phone, info.vat_number]
    .filter((line): line is string => typeof line === 'string' && line.trim().length > 0);
}
