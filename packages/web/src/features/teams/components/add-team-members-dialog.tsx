import { FormHelperText, Typography } from '@mui/material';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { CheckboxGroup } from '../../../components/checkbox-group';
import { FormDialog } from '../../../components/form-dialog';
import { throwIfBatchFailed } from '../../../lib/submit-mutation';
import { useMutationForm } from '../../../lib/use-mutation-form';
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
  const add = useAddTeamMembers();
  const { form, ...dialog } = useMutationForm({
    schema: z.object({ usernames: z.array(z.string()).check(z.minLength(1, t('teams.select_at_least_one'))) }),
    defaultValues: { usernames: [] },
    submit: async ({ usernames }) => {
      const { failed, firstError } = await add.mutateAsync({ teamId, usernames });
      throwIfBatchFailed({ total: usernames.length, failed: failed.length, firstError }, (count) => t('teams.operation_failed_for', { count }));
      return usernames.length;
    },
    success: (count) => t('teams.member_added', { count }),
    onSettled: onClose,
  });
  const error = dialog.fieldError('usernames');

  return (
    <FormDialog form={dialog} title={t('teams.add_members_title')} submitLabel={t('teams.add_members_submit')} onClose={onClose}>
      {candidates.length === 0 ? (
        <Typography color="text.secondary">{t('teams.no_candidates')}</Typography>
      ) : (
        <Controller
          control={form.control}
          name="usernames"
          render={({ field }) => (
            <CheckboxGroup
              label={t('teams.organization_members')}
              options={candidates.map((c) => ({ value: c.username, label: c.username }))}
              value={field.value}
              onChange={field.onChange}
            />
          )}
        />
      )}
      {error && <FormHelperText error>{error}</FormHelperText>}
    </FormDialog>
  );
}
