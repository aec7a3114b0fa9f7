import { describe, expect, it } from 'vitest';
import { deviceLensParams, devicePageSizeParams, deviceTableParams, parseDeviceLens, parseDevicePageSize, parseDeviceTableParams } from './device-table-params';

describe('parseDeviceTableParams', () => {
  it('reads the release filter the release page links with', () => {
    expect(parseDeviceTableParams(new URLSearchParams('is_running__release=42'))).toEqual({ filters: { releaseId: 42 }, page: 0 });
  });
  it('reads every filter and a 1-based page', () => {
    const parsed = parseDeviceTableParams(new URLSearchParams('status=updating&device_type=3&search=pi&page=2'));
    expect(parsed).toEqual({ filters: { status: 'updating', deviceTypeId: 3, search: 'pi' }, page: 1 });
  });
  it('ignores unknown statuses and malformed ids', () => {
    const parsed = parseDeviceTableParams(new URLSearchParams('status=sleeping&device_type=x&is_running__release=-1&page=0'));
    expect(parsed).toEqual({ filters: {}, page: 0 });
  });
});

describe('deviceTableParams', () => {
  it('round-trips filters and keeps other parameters', () => {
    const next = deviceTableParams(new URLSearchParams('lens=table&page=3'), { status: 'operational', releaseId: 7 }, 0);
    expect(next.toString()).toBe('lens=table&status=operational&is_running__release=7');
    expect(parseDeviceTableParams(next).filters).toEqual({ status: 'operational', releaseId: 7 });
  });
});

describe('device lens', () => {
  it('reads the map lens from the URL and defaults to the table', () => {
    expect(parseDeviceLens(new URLSearchParams('lens=map&status=updating'))).toBe('map');
    expect(parseDeviceLens(new URLSearchParams('lens=globe'))).toBe('table');
    expect(parseDeviceLens(new URLSearchParams(''))).toBe('table');
  });
  it('switches the lens keeping the filters and dropping the table page', () => {
    expect(deviceLensParams(new URLSearchParams('status=updating&page=3'), 'map').toString()).toBe('status=updating&lens=map');
    expect(deviceLensParams(new URLSearchParams('lens=map&search=pi'), 'table').toString()).toBe('search=pi');
  });
});

describe('page size', () => {
  it('reads one of the offered sizes, else the default 50', () => {
    expect(parseDevicePageSize(new URLSearchParams('size=250'))).toBe(250);
    expect(parseDevicePageSize(new URLSearchParams('size=251'))).toBe(50);
    expect(parseDevicePageSize(new URLSearchParams('size=abc'))).toBe(50);
    expect(parseDevicePageSize(new URLSearchParams(''))).toBe(50);
  });
  it('goes back to the first page and leaves the default out of the URL', () => {
    expect(devicePageSizeParams(new URLSearchParams('status=updating&page=3'), 500).toString()).toBe('status=updating&size=500');
    expect(devicePageSizeParams(new URLSearchParams('size=500&page=2'), 50).toString()).toBe('');
  });
});
