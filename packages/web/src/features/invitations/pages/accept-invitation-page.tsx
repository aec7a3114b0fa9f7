import { Box, Button, CircularProgress, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAcceptInvitation, type InvitationKind } from '../api/accept-invitation';
import { errorMessage, errorStatus } from '../../../lib/errors';
import { useNotify } from '../../../lib/notify';
import { paths } from '../../../lib/paths';

/**
 * /organization/invitation/{token} and /invitation/{token} (spec 1 §2): accept the invite as
 * the signed-in user (the guard sends anonymous visitors to /login, keeping this URL), then
 * go to /orgs or /fleets. A refused token stays here with an explanation and a way home.
 */
export function AcceptInvitationPage({ kind, token }: { kind: InvitationKind; token: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const accept = useAcceptInvitation();
  const started = useRef(false); // StrictMode runs effects twice; a token is single-use.

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    accept.mutate(
      { kind, token },
      {
        onSuccess: async ({ name }) => {
          notify.success(
            name
              ? t(kind === 'organization' ? 'invitation.joined_organization' : 'invitation.joined_fleet', { name })
              : t('invitation.accepted'),
          );
          // The new organization or fleet must show on the list we go to.
          await queryClient.invalidateQueries();
          void navigate(kind === 'organization' ? paths.organizations() : paths.applications(), { replace: true });
        },
      },
    );
  }, [accept, kind, token, navigate, notify, queryClient, t]);

  if (!accept.isError) {
    return (
      <Box sx={{ minHeight: '60vh', display: 'grid', placeItems: 'center' }}>
        <CircularProgress aria-label={t('invitation.accepting')} />
      </Box>
    );
  }

  const status = errorStatus(accept.error);
  const reason =
    status === 403
      ? t('invitation.wrong_email')
      : status === 404
        ? t('invitation.not_found')
        : status === 400
          ? t('invitation.expired')
          : errorMessage(accept.error, t);
  return (
    <Box role="alert" sx={{ minHeight: '60vh', display: 'grid', placeItems: 'center', textAlign: 'center', p: 2 }}>
      <div>
        <Typography variant="h5" component="h1" gutterBottom>
          {t('invitation.failed_title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3, maxWidth: 480 }}>
          {reason}
        </Typography>
        <Button variant="contained" onClick={() => void navigate(paths.home())}>
          {t('not_found.go_home')}
        </Button>
      </div>
    </Box>
  );
}
