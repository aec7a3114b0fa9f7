import { createContext, useContext } from 'react';
import type { FleetAccess } from './fleet-access';

/** Reads the caller's access to one fleet (undefined while loading); a hook. */
export type FleetAccessReader = (fleetId: number) => { access: FleetAccess | undefined };

const FleetAccessReaderContext = createContext<FleetAccessReader | null>(null);

/**
 * A page that needs the caller's access to some other fleet than its own (moving a device
 * lists the fleets it may go to) gets the reader from the route that composes it: features do
 * not import the fleet-access feature, the route does.
 */
export const FleetAccessReaderProvider = FleetAccessReaderContext.Provider;

/** The caller's access to `fleetId`, through the reader the route provides. */
export function useFleetAccessOf(fleetId: number): FleetAccess | undefined {
  const read = useContext(FleetAccessReaderContext);
  if (!read) throw new Error('useFleetAccessOf needs a FleetAccessReaderProvider');
  return read(fleetId).access;
}
