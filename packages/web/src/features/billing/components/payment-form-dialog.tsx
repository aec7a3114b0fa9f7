import { FormControlLabel, Radio, Stack, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { useNotify } from '../../../lib/notify';
import { setCompanyName, useUpdateBillingInfo, type PaymentMethod } from '../api/billing-api';
import { ADDRESS_FIELD_MAX, ADDRESS_FIELDS, addressFieldMax, REQUIRED_ADDRESS_FIELDS, emptyAddress, manualBillingInfoBody, missingAddressFields, type AddressField, type AddressValues } from '../payment-form';

const AUTOCOMPLETE: Record<AddressField, string> = {
  first_name: 'given-name',
  last_name: 'family-name',
  company: 'organization',
  vat_number: 'off',
  address1: 'address-line1',
  address2: 'address-line2',
  city: 'address-level2',
  state: 'address-level1',
  zip: 'postal-code',
  country: 'country-name',
  phone: 'tel',
};
const LABEL_KEY = {
  first_name: 'billing.form.first_name',
  last_name: 'billing.form.last_name',
  company: 'billing.form.company',
  vat_number: 'billing.form.vat',
  address1: 'billing.form.address1',
  address2: 'billing.form.address2',
  city: 'billing.form.city',
  state: 'billing.form.state',
  zip: 'billing.form.zip',
  country: 'billing.form.country',
  phone: 'billing.form.phone',
} as const satisfies Record<AddressField, string>;

function initialValues(current: PaymentMethod | null | undefined, companyName: string | null): AddressValues {
  const values = emptyAddress();
  if (current) {
    for (const f of ADDRESS_FIELDS) {
      const v = current[f];
      if (typeof v === 'string') values[f] = v;
    }
    if (!values.first_name && !values.last_name && current.full_name) {
      const [first = '', ...rest] = current.full_name.split(' ');
      values.first_name = first;
      values.last_name = rest.join(' ');
    }
  }
  if (!values.company && companyName) values.company = companyName;
  return values;
}

/**
 * Spec 3 §2/§4/§5 payment-method form with the manual provider: the billing address (name in
 * two, phone always) and "Pay by bank transfer / purchase order". Before setup the
 * organization's company_name is patched. `onSaved` continues the plan change, if one waits.
 */
export function PaymentFormDialog({
  orgId,
  current,
  companyName,
  onSaved,
  onClose,
}: {
  orgId: number;
  current: PaymentMethod | null | undefined;
  companyName: string | null;
  onSaved: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const update = useUpdateBillingInfo(orgId);
  const [values, setValues] = useState<AddressValues>(() => initialValues(current, companyName));
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const missing = new Set(missingAddressFields(values));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (missing.size > 0) return;
    setBusy(true);
    try {
      const company = values.company.trim();
      if (company && company !== companyName) await setCompanyName(orgId, company.slice(0, ADDRESS_FIELD_MAX));
      await update.mutateAsync(manualBillingInfoBody(values));
      notify.success(t('billing.payment.updated'));
      onSaved();
    } catch (err) {
      notify.error(err);
    } finally {
      setBusy(false);
    }
  };

  const field = (f: AddressField) => (
    <TextInput
      key={f}
      id={`billing-${f}`}
      label={t(LABEL_KEY[f])}
      autoComplete={AUTOCOMPLETE[f]}
      required={REQUIRED_ADDRESS_FIELDS.includes(f)}
      value={values[f]}
      inputProps={{ maxLength: addressFieldMax(f) }}
      onChange={(e) => setValues((v) => ({ ...v, [f]: e.target.value }))}
      error={touched && missing.has(f) ? t('billing.form.required') : undefined}
    />
  );

  return (
    <FormDialog title={t('billing.form.title')} submitLabel={t('billing.form.submit')} submitting={busy} onSubmit={(e) => void submit(e)} onClose={onClose} maxWidth="md">
      <FormControlLabel control={<Radio checked readOnly />} label={t('billing.form.manual_choice')} />
      <Typography variant="body2" color="text.secondary">
        {t('billing.form.manual_help')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {field('first_name')}
        {field('last_name')}
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {field('company')}
        {field('vat_number')}
      </Stack>
      {field('address1')}
      {field('address2')}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {field('city')}
        {field('state')}
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {field('zip')}
        {field('country')}
      </Stack>
      {field('phone')}
    </FormDialog>
  );
}
