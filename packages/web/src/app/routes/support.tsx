import { SupportPage } from '../../features/support/pages/support-page';

/** /support (spec 3 §2 Support, issue 19): the support menu, the private ticket form and the organization's tickets. */
export function SupportRoute() {
  return <SupportPage />;
}
