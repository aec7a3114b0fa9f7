import { useSearchParams } from 'react-router';
import { ZendeskLoginPage } from '../../features/support/pages/zendesk-login-page';

/** /zendesk-login?return_to= (spec 1 §2): the support portal's sign-in for provider staff (issue 19). */
export function ZendeskLoginRoute() {
  const [search] = useSearchParams();
  return <ZendeskLoginPage returnTo={search.get('return_to') ?? undefined} />;
}
