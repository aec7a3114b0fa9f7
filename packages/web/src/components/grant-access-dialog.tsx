import { FormHelperText, Skeleton, Typography } from '@mui/material';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { useMutationForm } from '../lib/use-mutation-form';
import { CheckboxGroup } from './checkbox-group';
import { FormDialog } from './form-dialog';
import { RoleSelect, type RoleOption } from './role-select';

interface Props {
  title: string;
  submitLabel: string;
  /** Accessible name of the checkbox group, e.g. "Fleets" or "Teams". */
  itemsLabel: string;
  /** What may be granted (already granted ones left out); undefined while loading. */
  items: readonly { id: number; name: string }[] | undefined;
  emptyText: string;
  roleOptions: readonly RoleOption[];
  /** Grants access to every picked item with one role; resolves to the success toast. */
  onSubmit: (ids: number[], roleName: string) => Promise<string>;
  onClose: () => void;
}

/**
 * Team access with one role (spec 1 §2, spec 2 §2): a team's fleets or blocks from its page,
 * or teams from a fleet's page. Picking nothing is 'no target received' (spec 1 §8).
 */
export function GrantAccessDialog({ title, submitLabel, itemsLabel, items, emptyText, roleOptions, onSubmit, onClose }: Props) {
  const { t } = useTranslation();
  const { form, ...dialog } = useMutationForm({
    schema: z.object({
      ids: z.array(z.number()).check(z.minLength(1, t('teams.no_target_received'))),
      roleName: z.string().check(z.minLength(1, t('teams.role_required'))),
    }),
    defaultValues: { ids: [], roleName: '' },
    submit: ({ ids, roleName }) => onSubmit(ids, roleName),
    success: (done) => done,
    onSuccess: onClose,
  });
  // One message at a time, the items' first (spec 1 §8).
  const error = dialog.fieldError('ids') ?? dialog.fieldError('roleName');

  return (
    <FormDialog form={dialog} title={title} submitLabel={submitLabel} onClose={onClose}>
      {items === undefined ? (
        <Skeleton />
      ) : items.length === 0 ? (
        <Typography color="text.secondary">{emptyText}</Typography>
      ) : (
        <Controller
          control={form.control}
          name="ids"
          render={({ field }) => (
            <CheckboxGroup label={itemsLabel} options={items.map((item) => ({ value: item.id, label: item.name }))} value={field.value} onChange={field.onChange} />
          )}
        />
      )}
      <RoleSelect {...form.register('roleName')} id="access-role" label={t('teams.access_role')} placeholder={t('teams.choose_role')} options={roleOptions} />
      {error && <FormHelperText error>{error}</FormHelperText>}
    </FormDialog>
  );
}
