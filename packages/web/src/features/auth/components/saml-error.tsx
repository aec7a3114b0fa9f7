import { Alert } from '@mui/material';
import { useSearchParams } from 'react-router';

/** The query parameter /login and /signup show a SAML sign-in error from (spec 1 §2 `saml_error`). */
export const SAML_ERROR_PARAM = 'saml_error';

/** A SAML sign-in error (spec 1 §8) the SAML pages put in the query; shown on /login and /signup. */
export function SamlSignInError() {
  const [params] = useSearchParams();
  const error = params.get(SAML_ERROR_PARAM);
  if (!error) return null;
  return (
    <Alert severity="error" sx={{ mb: 2 }} data-testid="saml-sign-in-error">
      {error.slice(0, 500)}
    </Alert>
  );
}
