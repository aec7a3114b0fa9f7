import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { errorStatus } from '../../../lib/errors';
import { useNotify } from '../../../lib/notify';
import { useCreateTeam } from '../api/create-team';
import { useRenameTeam } from '../api/rename-team';

type Props =
  | { mode: 'create'; organizationId: number; onClose: () => void; onCreated?: (id: number) => void }
  | { mode: 'rename'; team: { id: number; name: string }; onClose: () => void };

/**
 * Create a team, or rename one (spec 1 §5: name required, unique case-insensitively in the
 * organization — the server answers 409; rename defaults to the current name).
 */
export function TeamNameDialog(props: Props) {
  const { t } = useTranslation();
  const notify = useNotify();
  const create = useCreateTeam();
  const rename = useRenameTeam();
  const schema = z.object({ name: z.string().check(z.trim(), z.minLength(1, t('teams.name_required')), z.maxLength(100)) });
  const { register, handleSubmit, formState, setError } = useForm<z.infer<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { name: props.mode === 'rename' ? props.team.name : '' },
  });

  const onSubmit = handleSubmit(async ({ name }) => {
    try {
      if (props.mode === 'create') {
        const team = await create.mutateAsync({ organizationId: props.organizationId, name });
        notify.success(t('teams.created', { name }));
        props.onClose();
        props.onCreated?.(team.id);
      } else {
        if (name === props.team.name) return props.onClose();
        await rename.mutateAsync({ id: props.team.id, name });
        notify.success(t('teams.renamed'));
        props.onClose();
      }
    } catch (err) {
      if (errorStatus(err) === 409) setError('name', { message: t('already_used') });
      else notify.error(err);
    }
  });

  return (
    <FormDialog
      open
      title={props.mode === 'create' ? t('teams.create_title') : t('teams.rename_title')}
      submitLabel={props.mode === 'create' ? t('teams.create_submit') : t('teams.rename_submit')}
      cancelLabel={t('teams.cancel')}
      submitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={props.onClose}
    >
      <TextInput
        {...register('name')}
        id="team-name"
        label={t('teams.name')}
        autoComplete="off"
        autoFocus
        error={formState.errors.name?.message}
      />
    </FormDialog>
  );
}
