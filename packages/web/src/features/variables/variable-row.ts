/**
 * One row of a variables table (spec 2 §3 "Variable row in the UI"): environment and service
 * variables share the table; `serviceId` 0 is the pseudo-service 'All services'.
 */
export interface VariableRow {
  /** The server's id (0 for a row added in the browser and not yet applied). */
  id: number;
  name: string;
  value: string;
  /** 0: all services (an environment variable); otherwise the service's id. */
  serviceId: number;
  serviceName: string;
  /** Device service variables only: the service install it hangs from. */
  serviceInstallId?: number;
}

/** Spec 2 §3: the pseudo-service 'All services' has id 0. */
export const ALL_SERVICES = 0;

/** A row's staging key: ids of environment and service variables are separate sequences. */
export const variableKey = (row: VariableRow) => `${row.serviceId === ALL_SERVICES ? 'env' : 'svc'}:${row.id}`;

/** Two rows stage as the same when name, service and value are (edits change the value only). */
export const sameVariable = (a: VariableRow, b: VariableRow) => a.name === b.name && a.serviceId === b.serviceId && a.value === b.value;

/** Where a name lives: the same name may exist once per service and once for all services. */
export const slotOf = (row: { name: string; serviceId: number }) => `${row.serviceId}\u0000${row.name}`;

/** Rows sorted as the table lists them: by name, then 'All services' first, then by service name. */
export function byNameAndService(a: VariableRow, b: VariableRow): number {
  return a.name.localeCompare(b.name) || (a.serviceId === b.serviceId ? 0 : a.serviceId === ALL_SERVICES ? -1 : b.serviceId === ALL_SERVICES ? 1 : a.serviceName.localeCompare(b.serviceName));
}

export interface ServiceOption {
  id: number;
  name: string;
  /** Device pages: the service install a device service variable is created on. */
  serviceInstallId?: number;
}
