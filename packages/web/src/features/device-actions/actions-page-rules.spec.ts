import { describe, expect, it } from 'vitest';
import { confirmationOf, PAGE_ACTIONS, pageActionReason, permissionOf, type PageActionFacts } from './actions-page-rules';

const ready: PageActionFacts = { is_online: true, overall_status: 'operational', supportsBlink: true, localMode: false, can: () => true };

describe('the actions page (spec 2 §2, §4)', () => {
  it('lists the menu actions and delete, in the menu order', () => {
    expect(PAGE_ACTIONS).toEqual(['identify', 'restart', 'reboot', 'shutdown', 'purge', 'delete']);
  });

  it('enables every action of an online, provisioned device for a caller holding the rights', () => {
    for (const action of PAGE_ACTIONS) expect(pageActionReason(action, ready)).toBeUndefined();
  });

  it('disables device actions offline, but not delete', () => {
    const offline = { ...ready, is_online: false };
    for (const action of PAGE_ACTIONS.filter((a) => a !== 'delete')) expect(pageActionReason(action, offline)).toBe('device_must_be_online');
    expect(pageActionReason('delete', offline)).toBeUndefined();
  });

  it('blocks reboot, shutdown and purge until fully provisioned', () => {
    const configuring = { ...ready, overall_status: 'configuring' };
    expect(pageActionReason('reboot', configuring)).toBe('not_fully_provisioned');
    expect(pageActionReason('shutdown', configuring)).toBe('not_fully_provisioned');
    expect(pageActionReason('purge', configuring)).toBe('not_fully_provisioned');
    expect(pageActionReason('restart', configuring)).toBeUndefined();
  });

  it('needs an LED for identify', () => {
    expect(pageActionReason('identify', { ...ready, supportsBlink: false })).toBe('no_blink_support');
  });

  it('takes restart and purge away in local mode', () => {
    const local = { ...ready, localMode: true };
    expect(pageActionReason('restart', local)).toBe('not_available_in_local_mode');
    expect(pageActionReason('purge', local)).toBe('not_available_in_local_mode');
    expect(pageActionReason('reboot', local)).toBeUndefined();
    // Offline wins: the device cannot take anything.
    expect(pageActionReason('restart', { ...local, is_online: false })).toBe('device_must_be_online');
  });

  it('says permission first, each action by its own right', () => {
    const holding = (held: string) => ({ ...ready, can: (p: string) => p === held });
    expect(pageActionReason('delete', holding('resin.device.update'))).toBe('permission_denied');
    expect(pageActionReason('delete', holding('resin.device.delete'))).toBeUndefined();
    expect(pageActionReason('restart', holding('resin.device.update'))).toBe('permission_denied');
    expect(pageActionReason('reboot', { ...holding('resin.device_config_variable.all'), is_online: false })).toBe('permission_denied');
    expect(permissionOf('restart')).toBe('resin.device_config_variable.all');
    expect(permissionOf('delete')).toBe('resin.device.delete');
  });

  it('confirms reboot and shutdown yes/no, purge and delete by the name', () => {
    expect(confirmationOf('reboot')).toBe('yes-no');
    expect(confirmationOf('shutdown')).toBe('yes-no');
    expect(confirmationOf('purge')).toBe('type-name');
    expect(confirmationOf('delete')).toBe('type-name');
    expect(confirmationOf('identify')).toBeUndefined();
    expect(confirmationOf('restart')).toBeUndefined();
  });
});
