import type { OsUpdateState } from '@flotilla/model';

/** The label key of each spec 2 §4 OS update state (the settings rows and the group dialog). */
export const OS_STATE_KEY = {
  offline: 'devices.os_state_offline',
  'not supported': 'devices.os_state_not_supported',
  upToDate: 'devices.os_state_upToDate',
  versionNotAvailable: 'devices.os_state_versionNotAvailable',
  updatableSwitchToEsr: 'devices.os_state_updatableSwitchToEsr',
  downgradeCannotSwitchToEsr: 'devices.os_state_downgradeCannotSwitchToEsr',
  forbiddenSwitchToNonEsr: 'devices.os_state_forbiddenSwitchToNonEsr',
  updatable: 'devices.os_state_updatable',
} as const satisfies Record<OsUpdateState, string>;
