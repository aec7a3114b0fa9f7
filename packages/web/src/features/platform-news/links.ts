import type { HelpLinks } from '../../lib/dashboard-config';

type LinkKey = 'getting_started' | 'docs' | 'feature_requests' | 'forums' | 'help_center' | 'status_page';

/** The menu's outside links, in the header's order (spec 3 §2); an unset one is left out. */
export function helpMenuLinks(docsUrl: string, links: HelpLinks): { key: LinkKey; href: string }[] {
  const all: [LinkKey, string | null][] = [
    ['getting_started', links.gettingStartedUrl],
    ['docs', docsUrl],
    ['feature_requests', links.featureRequestsUrl],
    ['forums', links.forumsUrl],
    ['help_center', links.helpCenterUrl],
    ['status_page', links.statusPageUrl],
  ];
  return all.filter((entry): entry is [LinkKey, string] => Boolean(entry[1])).map(([key, href]) => ({ key, href }));
}
