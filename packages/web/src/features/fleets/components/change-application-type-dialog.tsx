import { Alert, CircularProgress } from '@mui/material';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { SelectInput } from '../../../components/form-fields';
import { errorMessage } from '../../../lib/errors';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { useChangeApplicationType, useCurrentApplicationTypes } from '../api/change-application-type';

/** Lists the non-legacy application types and PATCHes the chosen one; a refusal shows the server's message. */
export function ChangeApplicationTypeDialog({ applicationId, onClose }: { applicationId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const types = useCurrentApplicationTypes(true);
  const change = useChangeApplicationType(applicationId);
  const first = String(types.data?.[0]?.id ?? '');
  const { form, ...dialog } = useMutationForm({
    schema: z.object({ typeId: z.string() }),
    defaultValues: { typeId: '' },
    submit: ({ typeId }) => change.mutateAsync(Number(typeId || first)),
    success: t('fleets.upgrade_done'),
    onSuccess: onClose,
    // The refusal is shown in the dialog (below), not as a toast.
    onError: () => true,
  });
  const selected = form.watch('typeId') || first;

  return (
    <FormDialog form={dialog} title={t('fleets.upgrade_dialog_title')} submitLabel={t('fleets.upgrade_submit')} submitDisabled={!selected} onClose={onClose}>
      {types.isPending && <CircularProgress aria-label={t('app.loading')} />}
      {types.isError && <Alert severity="error">{errorMessage(types.error, t)}</Alert>}
      {types.data?.length === 0 && <Alert severity="info">{t('fleets.upgrade_none')}</Alert>}
      {types.data && types.data.length > 0 && (
        <Controller
          control={form.control}
          name="typeId"
          render={({ field }) => (
            <SelectInput id="change-application-type" label={t('fleets.upgrade_type_label')} value={field.value || first} onChange={(e) => field.onChange(e.target.value)}>
              {types.data.map((type) => (
                <option key={type.id} value={type.id} title={type.description ?? undefined}>
                  {type.name}
                </option>
              ))}
            </SelectInput>
          )}
        />
      )}
      {change.isError && <Alert severity="error">{errorMessage(change.error, t)}</Alert>}
    </FormDialog>
  );
}
