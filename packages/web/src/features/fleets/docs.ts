import type { ApplicationClass } from '@flotilla/model';

/**
 * Documentation links of the empty states. Flotilla speaks balena's API, so balena's guides
 * describe the same concepts; a deployment can point at its own docs.
 */
export const FLEETS_DOCS_URL: string = import.meta.env.VITE_FLEETS_DOCS_URL ?? 'https://docs.balena.io/learn/manage/fleets/';
export const APPS_DOCS_URL: string = import.meta.env.VITE_APPS_DOCS_URL ?? 'https://docs.balena.io/learn/welcome/primer/';
export const BLOCKS_DOCS_URL: string = import.meta.env.VITE_BLOCKS_DOCS_URL ?? 'https://docs.balena.io/learn/develop/blocks/';

export const DOCS_URL: Record<ApplicationClass, string> = { fleet: FLEETS_DOCS_URL, app: APPS_DOCS_URL, block: BLOCKS_DOCS_URL };
