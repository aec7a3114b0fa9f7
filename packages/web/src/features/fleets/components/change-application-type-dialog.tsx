import { Alert, CircularProgress } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog';
import { SelectInput } from '../../../components/form-fields';
import { errorMessage } from '../../../lib/errors';
import { useNotify } from '../../../lib/notify';
import { useChangeApplicationType, useCurrentApplicationTypes } from '../api/change-application-type';

/** Lists the non-legacy application types and PATCHes the chosen one; a refusal shows the server's message. */
export function ChangeApplicationTypeDialog({ applicationId, onClose }: { applicationId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const types = useCurrentApplicationTypes(true);
  const change = useChangeApplicationType(applicationId);
  const [chosen, setChosen] = useState<string>('');
  const selected = chosen || String(types.data?.[0]?.id ?? '');

  return (
    <FormDialog
      open
      title={t('fleets.upgrade_dialog_title')}
      submitLabel={t('fleets.upgrade_submit')}
      cancelLabel={t('fleets.cancel')}
      submitting={change.isPending}
      submitDisabled={!selected}
      onClose={onClose}
      onSubmit={(event) => {
        event.preventDefault();
        change.mutate(Number(selected), {
          onSuccess: () => {
            notify.success(t('fleets.upgrade_done'));
            onClose();
          },
        });
      }}
    >
      {types.isPending && <CircularProgress aria-label={t('app.loading')} />}
      {types.isError && <Alert severity="error">{errorMessage(types.error, t)}</Alert>}
      {types.data?.length === 0 && <Alert severity="info">{t('fleets.upgrade_none')}</Alert>}
      {types.data && types.data.length > 0 && (
        <SelectInput id="change-application-type" label={t('fleets.upgrade_type_label')} value={selected} onChange={(e) => setChosen(e.target.value)}>
          {types.data.map((type) => (
            <option key={type.id} value={type.id} title={type.description ?? undefined}>
              {type.name}
            </option>
          ))}
        </SelectInput>
      )}
      {change.isError && <Alert severity="error">{errorMessage(change.error, t)}</Alert>}
    </FormDialog>
  );
}
