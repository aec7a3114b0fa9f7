import { Button, Stack, Typography } from '@mui/material';
import { lazy, Suspense, useId, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { DataTable, type Column } from '../../../components/data-table';
import { SelectInput } from '../../../components/form-fields';
import { PermissionTooltip } from '../../../components/permission-tooltip';
import { useRunMutation } from '../../../lib/notify';
import { useRemoveIdentityProviderMembership, useSetMembershipTeam } from '../api/mutations';
import { useOrganizationTeams, type IdentityProviderMembershipRow } from '../api/queries';
import { membershipRemovalBlock, providerControlBlock } from '../idp-view';

const ConfirmDialog = lazy(async () => ({ default: (await import('../../../components/confirm-dialog')).ConfirmDialog }));

interface Props {
  ssoIdentifier: string;
  memberships: IdentityProviderMembershipRow[];
  canAdminister: boolean;
}

/** Spec 1 §2 memberships table: each organization, its default team (a select), remove. */
export function MembershipsTable({ ssoIdentifier, memberships, canAdminister }: Props) {
  const { t } = useTranslation();
  const [removing, setRemoving] = useState<IdentityProviderMembershipRow | null>(null);
  const remove = useRemoveIdentityProviderMembership();
  const removalBlock = membershipRemovalBlock(canAdminister, memberships.length);
  const name = (m: IdentityProviderMembershipRow) => organizationName(m, t);

  const columns: Column<IdentityProviderMembershipRow>[] = [
    { key: 'organization', header: t('identity_providers.organization'), render: name },
    {
      key: 'handle',
      header: t('identity_providers.handle'),
      render: (m) => (
        <Typography component="span" variant="body2" color="text.secondary">
          {m.organization.handle}
        </Typography>
      ),
    },
    { key: 'team', header: t('identity_providers.default_team'), render: (m) => <DefaultTeamSelect membership={m} canAdminister={canAdminister} /> },
    {
      key: 'actions',
      header: '',
      render: (m) => (
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <PermissionTooltip allowed={!removalBlock} title={removalBlock}>
            <Button
              size="small"
              color="error"
              disabled={!!removalBlock}
              onClick={() => setRemoving(m)}
              aria-label={t('identity_providers.remove_membership', { organization: name(m) })}
            >
              {t('common.remove')}
            </Button>
          </PermissionTooltip>
        </Stack>
      ),
    },
  ];

  return (
    <>
      <DataTable label={t('identity_providers.memberships_table')} columns={columns} rows={memberships} getRowKey={(m) => m.id} />
      <Suspense fallback={null}>
        {removing && (
          <ConfirmDialog
            title={t('identity_providers.remove_membership_title')}
            body={t('identity_providers.remove_membership_body', { organization: name(removing), identifier: ssoIdentifier })}
            confirmLabel={t('common.remove')}
            onConfirm={() => remove.mutateAsync(removing.id)}
            success={t('identity_providers.membership_removed')}
            onClose={() => setRemoving(null)}
          />
        )}
      </Suspense>
    </>
  );
}

/** The organization's name, or what it is when the user cannot read it (not a member). */
function organizationName(m: IdentityProviderMembershipRow, t: TFunction): string {
  return m.organization.name ?? t('identity_providers.unreadable_organization', { id: m.organization.id });
}

/** The team new SAML users of the organization join: PATCH {grants_access_to__team} (none = null). */
function DefaultTeamSelect({ membership, canAdminister }: { membership: IdentityProviderMembershipRow; canAdminister: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const teams = useOrganizationTeams(membership.organization.id);
  const setTeam = useSetMembershipTeam();
  const run = useRunMutation();
  const block = providerControlBlock(canAdminister);
  const current = membership.team?.id ?? '';
  // The current team is an option even before (or without) the organization's team list.
  const options = teams.data ?? (membership.team ? [membership.team] : []);
  return (
    <PermissionTooltip allowed={!block} title={block}>
      <div style={{ minWidth: 200 }}>
        <SelectInput
          id={id}
          size="small"
          label={t('identity_providers.default_team_of', { organization: organizationName(membership, t) })}
          value={String(current)}
          disabled={!!block || setTeam.isPending}
          onChange={(e) => {
            const teamId = e.target.value === '' ? null : Number(e.target.value);
            void run(() => setTeam.mutateAsync({ membershipId: membership.id, teamId }), { success: t('identity_providers.team_set') });
          }}
        >
          <option value="">{t('identity_providers.no_team')}</option>
          {options.map((team) => (
            <option key={team.id} value={team.id}>
              {team.name}
            </option>
          ))}
        </SelectInput>
      </div>
    </PermissionTooltip>
  );
}
