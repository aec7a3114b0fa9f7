import { BILLING_ADDRESS_FIELD_MAX, BILLING_VAT_NUMBER_MAX } from '@flotilla/model';

/**
 * Spec 3 §5 payment form (the manual provider's billing address): a billing address, the name
 * split in two, the phone always asked. Each field is bounded (a bounded request).
 */
export const ADDRESS_FIELDS = ['first_name', 'last_name', 'company', 'vat_number', 'address1', 'address2', 'city', 'state', 'zip', 'country', 'phone'] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];
export type AddressValues = Record<AddressField, string>;
export const REQUIRED_ADDRESS_FIELDS: readonly AddressField[] = ['first_name', 'last_name', 'address1', 'city', 'zip', 'country', 'phone'];
export const ADDRESS_FIELD_MAX = BILLING_ADDRESS_FIELD_MAX;
/** The server's bounds per field (docs/billing.md, `PATCH …/info`); the rest take ADDRESS_FIELD_MAX. */
export const ADDRESS_FIELD_LIMITS: Partial<Record<AddressField, number>> = { zip: 32, country: 64, phone: 64, vat_number: BILLING_VAT_NUMBER_MAX };
export const addressFieldMax = (f: AddressField) => ADDRESS_FIELD_LIMITS[f] ?? ADDRESS_FIELD_MAX;

export const emptyAddress = (): AddressValues => Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, ''])) as AddressValues;

/** The required fields left empty. */
export function missingAddressFields(values: AddressValues): AddressField[] {
  return REQUIRED_ADDRESS_FIELDS.filter((f) => values[f].trim().length === 0);
}

/**
 * The manual provider's `PATCH …/info` body: the choice and the address (docs/billing.md); the
 * name, asked in two, is sent as `full_name`.
 */
export function manualBillingInfoBody(values: AddressValues): Record<string, string> {
  const body: Record<string, string> = { token_type: 'manual', token_id: 'manual' };
  const fullName = [values.first_name.trim(), values.last_name.trim()].filter(Boolean).join(' ');
  if (fullName) body.full_name = fullName.slice(0, ADDRESS_FIELD_MAX);
  for (const f of ADDRESS_FIELDS) {
    if (f === 'first_name' || f === 'last_name') continue;
    const v = values[f].trim().slice(0, addressFieldMax(f));
    if (v.length > 0) body[f] = v;
  }
  return body;
}
