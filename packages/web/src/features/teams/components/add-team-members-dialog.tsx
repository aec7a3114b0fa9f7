import { Checkbox, FormControlLabel, FormGroup, FormHelperText, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog';
import { useNotify } from '../../../lib/notify';
import { useAddTeamMembers } from '../api/add-team-members';

export interface TeamCandidate {
  userId: number;
  username: string;
}

interface Props {
  teamId: number;
  /** Organization users not yet in the team (the route works them out). */
  candidates: TeamCandidate[];
  onClose: () => void;
}

/** Spec 1 §5: add organization users to a team; at least one selection. */
export function AddTeamMembersDialog({ teamId, candidates, onClose }: Props) {
  const { t } = useTranslation();
  const notify = useNotify();
  const add = useAddTeamMembers();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string>();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (selected.size === 0) return setError(t('teams.select_at_least_one'));
    const { failed, firstError } = await add.mutateAsync({ teamId, usernames: [...selected] });
    if (failed.length === 0) notify.success(t('teams.member_added', { count: selected.size }));
    else if (selected.size === 1) notify.error(firstError);
    else notify.error(t('teams.operation_failed_for', { count: failed.length }));
    onClose();
  };

  return (
    <FormDialog
      open
      title={t('teams.add_members_title')}
      submitLabel={t('teams.add_members_submit')}
      cancelLabel={t('teams.cancel')}
      submitting={add.isPending}
      onSubmit={(e) => void onSubmit(e)}
      onClose={onClose}
    >
      {candidates.length === 0 ? (
        <Typography color="text.secondary">{t('teams.no_candidates')}</Typography>
      ) : (
        <FormGroup aria-label={t('teams.organization_members')}>
          {candidates.map((c) => (
            <FormControlLabel
              key={c.userId}
              label={c.username}
              control={
                <Checkbox
                  checked={selected.has(c.username)}
                  onChange={(e) => {
                    const next = new Set(selected);
                    if (e.target.checked) next.add(c.username);
                    else next.delete(c.username);
                    setSelected(next);
                    setError(undefined);
                  }}
                />
              }
            />
          ))}
        </FormGroup>
      )}
      {error && <FormHelperText error>{error}</FormHelperText>}
    </FormDialog>
  );
}
