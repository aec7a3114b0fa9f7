import { useTranslation } from 'react-i18next';
import { NameDialog } from '../../../components/name-dialog';
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
  const create = useCreateTeam();
  const rename = useRenameTeam();
  const creating = props.mode === 'create';
  return (
    <NameDialog
      title={creating ? t('teams.create_title') : t('teams.rename_title')}
      submitLabel={creating ? t('teams.create_submit') : t('common.rename')}
      label={t('teams.name')}
      inputId="team-name"
      requiredMessage={t('teams.name_required')}
      defaultName={props.mode === 'rename' ? props.team.name : undefined}
      onSave={async (name) =>
        props.mode === 'create' ? (await create.mutateAsync({ organizationId: props.organizationId, name })).id : (await rename.mutateAsync({ id: props.team.id, name }), undefined)
      }
      success={(name) => (creating ? t('teams.created', { name }) : t('teams.renamed'))}
      onSaved={(id) => props.mode === 'create' && id !== undefined && props.onCreated?.(id)}
      onClose={props.onClose}
    />
  );
}
