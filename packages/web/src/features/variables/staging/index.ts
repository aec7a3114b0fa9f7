// The staged-edit mechanism of the variables and configuration pages (spec 2 §4).
export * from './staging';
export { useStaging, type Staging, type UseStagingOptions } from './use-staging';
export { usePendingChangesGuard, LEAVE_WARNING } from './use-pending-changes-guard';
export { StagingBar } from './staging-bar';
export { StagedRowMark } from './staged-row-mark';
