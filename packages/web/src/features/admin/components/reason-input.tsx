import { ADMIN_REASON_MAX } from '@flotilla/model';
import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput } from '../../../components/form-fields';

/**
 * The reason a platform administrator gives for a grant or a refund (the model's
 * `adminReasonProblem` checks it, as the server does): a multi-line field, `id` its prefix.
 */
export function ReasonInput(props: Omit<ComponentProps<typeof TextInput>, 'label' | 'helperText' | 'multiline' | 'minRows' | 'inputProps'>) {
  const { t } = useTranslation();
  return (
    <TextInput
      {...props}
      id={`${props.id}-reason`}
      label={t('admin.credits.reason')}
      helperText={t('admin.credits.reason_help')}
      multiline
      minRows={2}
      inputProps={{ maxLength: ADMIN_REASON_MAX + 100 }}
    />
  );
}
