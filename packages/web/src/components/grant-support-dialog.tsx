import { supportAccessDefault } from '@flotilla/model';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { fromDateTimeLocal, toDateTimeLocal } from '../lib/datetime-local';
import { ruleCheck } from '../lib/form-rules';
import { useMutationForm } from '../lib/use-mutation-form';
import { FormDialog } from './form-dialog';
import { TextInput } from './form-fields';

interface Props {
  inputId: string;
  /** The text for a date that is not in the future (fleets and devices word it differently). */
  futureText: string;
  onGrant: (until: Date) => Promise<unknown>;
  /** The success toast. */
  success: string;
  onClose: () => void;
}

/** Grant support access (fleets and devices): a date in the future, 5 days ahead by default (spec 2 §5). */
export function GrantSupportDialog({ inputId, futureText, onGrant, success, onClose }: Props) {
  const { t } = useTranslation();
  const required = t('support_access.date_required');
  const { form, ...dialog } = useMutationForm({
    schema: z.object({
      until: z.string().check(
        ruleCheck((value: string) => {
          const date = fromDateTimeLocal(value);
          return !date ? required : date.getTime() <= Date.now() ? futureText : undefined;
        }),
      ),
    }),
    defaultValues: { until: toDateTimeLocal(supportAccessDefault(new Date())) },
    mode: 'onChange',
    submit: ({ until }) => onGrant(fromDateTimeLocal(until)!),
    success,
    onSuccess: onClose,
  });
  return (
    <FormDialog form={dialog} title={t('support_access.grant_title')} submitLabel={t('support_access.grant')} submitDisabled={!!dialog.fieldError('until')} onClose={onClose}>
      <TextInput
        {...form.register('until')}
        id={inputId}
        type="datetime-local"
        label={t('support_access.until')}
        inputProps={{ min: toDateTimeLocal(new Date()) }}
        error={dialog.fieldError('until')}
      />
    </FormDialog>
  );
}
