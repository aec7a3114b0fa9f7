import { Checkbox, FormControlLabel, FormGroup, FormHelperText, Skeleton, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../lib/notify';
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
  const notify = useNotify();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [role, setRole] = useState('');
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (selected.size === 0) return setError(t('teams.no_target_received'));
    if (!role) return setError(t('teams.role_required'));
    setSubmitting(true);
    try {
      notify.success(await onSubmit([...selected], role));
      onClose();
    } catch (err) {
      notify.error(err);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <FormDialog
      open
      title={title}
      submitLabel={submitLabel}
      cancelLabel={t('teams.cancel')}
      submitting={submitting}
      onSubmit={(e) => void submit(e)}
      onClose={onClose}
    >
      {items === undefined ? (
        <Skeleton />
      ) : items.length === 0 ? (
        <Typography color="text.secondary">{emptyText}</Typography>
      ) : (
        <FormGroup aria-label={itemsLabel}>
          {items.map((item) => (
            <FormControlLabel
              key={item.id}
              label={item.name}
              control={
                <Checkbox
                  checked={selected.has(item.id)}
                  onChange={(e) => {
                    const next = new Set(selected);
                    if (e.target.checked) next.add(item.id);
                    else next.delete(item.id);
                    setSelected(next);
                    setError(undefined);
                  }}
                />
              }
            />
          ))}
        </FormGroup>
      )}
      <RoleSelect
        id="access-role"
        label={t('teams.access_role')}
        placeholder={t('teams.choose_role')}
        options={roleOptions}
        value={role}
        onChange={(e) => {
          setRole(e.target.value);
          setError(undefined);
        }}
      />
      {error && <FormHelperText error>{error}</FormHelperText>}
    </FormDialog>
  );
}
