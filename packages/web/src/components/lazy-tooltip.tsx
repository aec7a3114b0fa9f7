import type { TooltipProps } from '@mui/material/Tooltip';
import { lazy, Suspense, type ComponentType } from 'react';

/*
 * MUI's Tooltip, fetched beside the page rather than as part of it. Tooltip and its Popper are ~12 kB gzip,
 * and the device pages have no first-page budget left for them (ARCHITECTURE.md, 350 kB):
 * the page is usable before it arrives (a hover text is an enhancement), so it is not part
 * of the first page. Until then the child renders as it is.
 */
let Loaded: ComponentType<TooltipProps> | null = null;
// Fetched as soon as a page that may show a tooltip is loaded (not awaited by it): by the time
// its data arrives and its controls render, the Tooltip is there, so a control is never
// rendered once without it and again with it (a hover on the first would be lost).
const loading = import('@mui/material/Tooltip').then((module) => {
  Loaded = module.default;
  return module;
});
const LazyTooltip = lazy(() => loading);

/** MUI's Tooltip (same props), without its weight on the first page. */
export function Tooltip(props: TooltipProps) {
  if (Loaded) return <Loaded {...props} />;
  return (
    <Suspense fallback={props.children}>
      <LazyTooltip {...props} />
    </Suspense>
  );
}
