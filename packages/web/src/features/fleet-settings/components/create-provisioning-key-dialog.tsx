import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ExpiryField } from '../../../components/expiry-field';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { DEFAULT_KEY_EXPIRY, keyFormSchema } from '../../../lib/key-expiry';
import { useMutationForm } from '../../../lib/use-mutation-form';
import type { NewProvisioningKey } from '../api/provisioning-keys';

interface Props {
  /** Creates the key; the page then shows it once. */
  onCreate: (key: NewProvisioningKey) => Promise<void>;
  onClose: () => void;
}

/** A provisioning key: name, optional description, expiry preset, custom date or never. */
export function CreateProvisioningKeyDialog({ onCreate, onClose }: Props) {
  const { t } = useTranslation();
  const { form, ...dialog } = useMutationForm({
    schema: keyFormSchema(t('api_keys.name_required'), (e) => t(`key_expiry.${e}`)),
    defaultValues: { name: '', description: '', expiry: DEFAULT_KEY_EXPIRY },
    submit: ({ name, description, expiry }) => onCreate({ name, description, expiryDate: expiry ?? null }),
  });

  return (
    <FormDialog form={dialog} title={t('api_keys.create_title')} submitLabel={t('common.create')} onClose={onClose}>
      <TextInput {...form.register('name')} id="provisioning-key-name" label={t('api_keys.name')} autoComplete="off" autoFocus error={dialog.fieldError('name')} />
      <TextInput {...form.register('description')} id="provisioning-key-description" label={t('api_keys.description_optional')} autoComplete="off" multiline minRows={2} />
      <Controller
        control={form.control}
        name="expiry"
        render={({ field, fieldState }) => (
          <ExpiryField
            id="provisioning-key-expiry"
            labels={{
              expiry: t('api_keys.expiry'),
              days: (count) => t('api_keys.expiry_days', { count }),
              custom: t('api_keys.expiry_custom'),
              neverWarning: t('api_keys.never_warning'),
            }}
            value={field.value}
            onChange={field.onChange}
            error={fieldState.error?.message}
          />
        )}
      />
    </FormDialog>
  );
}
