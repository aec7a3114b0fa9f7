import type { Locator } from '@playwright/test';

/** Devices drawn on a dashboard map: single markers plus the counts on the clusters. */
export async function devicesOnMap(map: Locator): Promise<number> {
  const markers = await map.getByTestId('map-marker').count();
  const clusters = await map.getByTestId('map-cluster').evaluateAll((els) => els.reduce((sum, el) => sum + Number(el.getAttribute('data-count')), 0));
  return markers + clusters;
}
