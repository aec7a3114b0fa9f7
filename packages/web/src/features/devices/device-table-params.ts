import { DEVICE_OVERALL_STATUSES, type DeviceOverallStatus } from '@flotilla/model';
import type { DeviceFilters } from './api/get-fleet-devices';
import { DEVICE_PAGE_SIZE, DEVICE_PAGE_SIZES } from './api/keys';

/**
 * The device table's filters and page live in the URL, so links such as the release page's
 * `/fleets/{id}/devices?is_running__release={releaseId}` (spec 2 §2) open a filtered table.
 */
const positiveInt = (value: string | null): number | undefined => {
  if (value === null || !/^[1-9][0-9]{0,9}$/.test(value)) return undefined;
  return Number(value);
};

export function parseDeviceTableParams(params: URLSearchParams): { filters: DeviceFilters; page: number } {
  const status = params.get('status');
  const filters: DeviceFilters = {};
  if (status !== null && (DEVICE_OVERALL_STATUSES as readonly string[]).includes(status)) filters.status = status as DeviceOverallStatus;
  const deviceTypeId = positiveInt(params.get('device_type'));
  if (deviceTypeId !== undefined) filters.deviceTypeId = deviceTypeId;
  const releaseId = positiveInt(params.get('is_running__release'));
  if (releaseId !== undefined) filters.releaseId = releaseId;
  const search = params.get('search');
  if (search) filters.search = search;
  const page = (positiveInt(params.get('page')) ?? 1) - 1;
  return { filters, page };
}

/** The URL parameters for `filters` and a 0-based page, keeping unrelated parameters. */
export function deviceTableParams(current: URLSearchParams, filters: DeviceFilters, page: number): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const key of ['status', 'device_type', 'is_running__release', 'search', 'page']) next.delete(key);
  if (filters.status) next.set('status', filters.status);
  if (filters.deviceTypeId !== undefined) next.set('device_type', String(filters.deviceTypeId));
  if (filters.releaseId !== undefined) next.set('is_running__release', String(filters.releaseId));
  if (filters.search) next.set('search', filters.search);
  if (page > 0) next.set('page', String(page + 1));
  return next;
}

/** Spec 2 §2: the device table's Table and Map lenses; the choice is kept in the URL (`?lens=map`). */
export type DeviceLens = 'table' | 'map';

export function parseDeviceLens(params: URLSearchParams): DeviceLens {
  return params.get('lens') === 'map' ? 'map' : 'table';
}

/** The URL parameters for `lens`, keeping the filters (the table's page only matters in the table). */
export function deviceLensParams(current: URLSearchParams, lens: DeviceLens): URLSearchParams {
  const next = new URLSearchParams(current);
  next.delete('lens');
  next.delete('page');
  if (lens === 'map') next.set('lens', 'map');
  return next;
}

/** The table's page size from `?size=` (one of DEVICE_PAGE_SIZES), else the default. */
export function parseDevicePageSize(params: URLSearchParams): number {
  const size = Number(params.get('size'));
  return (DEVICE_PAGE_SIZES as readonly number[]).includes(size) ? size : DEVICE_PAGE_SIZE;
}

/** The URL parameters for a page size, back on the first page; the default is left out. */
export function devicePageSizeParams(current: URLSearchParams, size: number): URLSearchParams {
  const next = new URLSearchParams(current);
  next.delete('size');
  next.delete('page');
  if (size !== DEVICE_PAGE_SIZE) next.set('size', String(size));
  return next;
}
