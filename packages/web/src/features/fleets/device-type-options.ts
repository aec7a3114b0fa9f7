import { deviceTypeOptionState, type DeviceTypeOptionState } from '@flotilla/model';

/** Spec 2: the default device type is the 64-bit Raspberry Pi 4 type when it exists. */
export const PREFERRED_DEVICE_TYPE = 'raspberrypi4-64';

export interface DeviceTypeOption {
  slug: string;
  name: string;
  /** The type's logo (a data: or https URL), when the catalogue has one. */
  logo: string | null;
  state: DeviceTypeOptionState;
  /** Options with a state other than ok are disabled (spec 2 §5). */
  disabled: boolean;
  /** The first ok option (spec 2 §5). */
  recommended: boolean;
}

/**
 * The device-type choices of the create dialog: the preferred type first, then the others
 * in the order given (by name); each with its state; the first ok one recommended.
 */
export function deviceTypeOptions(
  types: readonly { slug: string; name: string; logo?: string | null; contract?: unknown }[],
  context: { plan: string | undefined; needsMulticontainer: boolean },
): DeviceTypeOption[] {
  const ordered = [...types.filter((t) => t.slug === PREFERRED_DEVICE_TYPE), ...types.filter((t) => t.slug !== PREFERRED_DEVICE_TYPE)];
  let recommendedGiven = false;
  return ordered.map((t) => {
    const state = deviceTypeOptionState(t.contract, context);
    const recommended = state === 'ok' && !recommendedGiven;
    if (recommended) recommendedGiven = true;
    return { slug: t.slug, name: t.name, logo: t.logo ?? null, state, disabled: state !== 'ok', recommended };
  });
}
