/**
 * Fleet documentation link of the empty state. Flotilla speaks balena's API, so balena's
 * fleet guide describes the same concepts; a deployment can point at its own docs.
 */
export const FLEETS_DOCS_URL: string = import.meta.env.VITE_FLEETS_DOCS_URL ?? 'https://docs.balena.io/learn/manage/fleets/';
