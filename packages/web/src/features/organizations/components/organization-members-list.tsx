import { ListItem, ListItemText } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { OrganizationMember } from '../api/get-organization-members';
import { SummaryListCard } from '../../../components/summary-list-card';

interface Props {
  members: OrganizationMember[] | undefined;
  loading: boolean;
  failed: boolean;
  currentUserId: number | undefined;
}

export function OrganizationMembersList({ members, loading, failed, currentUserId }: Props) {
  const { t } = useTranslation();
  const roleLabel = (role: string | null) =>
    role === 'administrator' ? t('orgs.role_administrator') : role === 'member' ? t('orgs.role_member') : (role ?? '');
  return (
    <SummaryListCard
      title={t('org_summary.members')}
      loading={loading}
      error={failed ? t('org_summary.members_failed') : undefined}
      empty={members?.length === 0 ? t('org_summary.members_empty') : undefined}
    >
      {members?.map((m) => (
        <ListItem key={m.membershipId} divider>
          <ListItemText
            primary={`${m.username ?? t('org_summary.user_fallback', { id: m.userId })}${m.userId === currentUserId ? ` ${t('org_summary.you')}` : ''}`}
            secondary={roleLabel(m.role)}
          />
        </ListItem>
      ))}
    </SummaryListCard>
  );
}
