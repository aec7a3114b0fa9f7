import { Link, Stack, Typography, CircularProgress } from '@mui/material';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router';
import { AuthCard } from '../../features/auth/components/auth-card';
import { SamlIdentifierForm, SamlMergeForm } from '../../features/auth/components/saml-forms';
import { finalizeSaml, passwordToken, SAML_ERROR_PARAM, samlIdentifierKnown, samlStartUrl, useAdoptToken } from '../../features/auth/api/saml';
import '../../features/auth/saml-i18n';
import { errorMessage } from '../../lib/errors';
import { paths } from '../../lib/paths';

/** /login with a SAML error (spec 1 §8: every SAML error ends there). */
const loginWithError = (message: string) => `${paths.login()}?${new URLSearchParams({ [SAML_ERROR_PARAM]: message })}`;

function Working({ label }: { label: string }) {
  return (
    <Stack component="main" sx={{ minHeight: '60vh', alignItems: 'center', justifyContent: 'center' }} spacing={2}>
      <CircularProgress aria-label={label} />
      <Typography role="status">{label}</Typography>
    </Stack>
  );
}

/** /saml (spec 1 §2): enter the SSO identifier. */
export function SamlLoginRoute() {
  const { t } = useTranslation();
  return (
    <AuthCard
      title={t('saml.title')}
      footer={
        <Typography variant="body2">
          <Link component={RouterLink} to={paths.login()}>
            {t('saml.password_login')}
          </Link>
        </Typography>
      }
    >
      <SamlIdentifierForm />
    </AuthCard>
  );
}

/**
 * /saml/{ssoIdentifier}: sends the browser to the identity provider through the server's
 * GET /auth/saml/{ssoIdentifier}; an unknown identifier goes to /login with the error.
 */
export function SamlRedirectRoute() {
  const { t } = useTranslation();
  const { ssoIdentifier = '' } = useParams();
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      try {
        if (await samlIdentifierKnown(ssoIdentifier)) {
          window.location.assign(samlStartUrl(ssoIdentifier));
          return;
        }
        void navigate(loginWithError(t('saml.error_unknown_identifier', { identifier: ssoIdentifier })), { replace: true });
      } catch (err) {
        void navigate(loginWithError(t('saml.error_finalize', { message: errorMessage(err, t) })), { replace: true });
      }
    })();
  }, [ssoIdentifier, navigate, t]);
  return <Working label={t('saml.redirecting')} />;
}

/** /saml/callback/signon?code=…: the server signed the person in; the code becomes the session. */
export function SamlSignonCallbackRoute() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const adopt = useAdoptToken();
  const started = useRef(false);
  const code = params.get('code');
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (!code) {
      void navigate(loginWithError(t('saml.error_login_failed')), { replace: true });
      return;
    }
    void (async () => {
      try {
        await adopt(await finalizeSaml(code));
        void navigate('/', { replace: true });
      } catch (err) {
        void navigate(loginWithError(t('saml.error_finalize', { message: errorMessage(err, t) })), { replace: true });
      }
    })();
  }, [code, adopt, navigate, t]);
  return <Working label={t('saml.completing')} />;
}

/**
 * /saml/callback/merge?code=…&shouldMergeWith=…: an account with the provider's email exists;
 * its owner signs in to it with its password, and the code is finalized with that token
 * (the server links the SAML account after comparing the emails).
 */
export function SamlMergeCallbackRoute() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const adopt = useAdoptToken();
  const code = params.get('code');
  const email = params.get('shouldMergeWith');
  const problem = !code ? t('saml.error_login_failed') : !email ? t('saml.error_account_mismatch') : null;
  useEffect(() => {
    if (problem) void navigate(loginWithError(problem), { replace: true });
  }, [problem, navigate]);
  if (problem || !code || !email) return <Working label={t('saml.completing')} />;

  const merge = async (password: string) => {
    // A wrong password stays on this form (the error is thrown to it).
    const jwt = await passwordToken(email, password);
    try {
      await adopt(await finalizeSaml(code, jwt));
      void navigate('/', { replace: true });
    } catch (err) {
      const status = (err as { statusCode?: unknown }).statusCode;
      const message =
        status === 401
          ? t('saml.error_require_login', { message: errorMessage(err, t) })
          : status === 400 && /mismatch/i.test(errorMessage(err, t))
            ? t('saml.error_email_mismatch', { email })
            : t('saml.error_finalize', { message: errorMessage(err, t) });
      void navigate(loginWithError(message), { replace: true });
    }
  };
  return (
    <AuthCard title={t('saml.merge_title')}>
      <SamlMergeForm email={email} onToken={merge} />
    </AuthCard>
  );
}
