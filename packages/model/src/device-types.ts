import { DEFAULT_POLL_INTERVAL_MS } from './devices.js';
/**
 * The seeded device-type catalogue. Each contract records LED support (identify) and the
 * schema of the configuration variables the type accepts (spec 2 "config variable schema").
 */
export interface DeviceTypeSeed {
  slug: string;
  name: string;
  arch: 'armv7hf' | 'aarch64' | 'rpi' | 'amd64' | 'i386';
  aliases?: string[];
  led: boolean;
  /**
   * Support state (assumption: the catalogue records it; spec 2 §5 option states). Absent:
   * released. 'discontinued' has no further OS versions, 'upcoming' none yet.
   */
  state?: 'discontinued' | 'upcoming';
  /** Only organizations on a paid plan may use it (spec 2 §5 needsPlanUpgrade). */
  paidOnly?: boolean;
  /** false: the type's OS runs a single container only (spec 2 §5 needsMulticontainerSupport). */
  multicontainer?: boolean;
  configVars: Record<string, { description: string; type: 'string' | 'integer' | 'boolean'; enum?: string[]; default?: string; will_reboot?: boolean }>;
}

const RPI_CONFIG: DeviceTypeSeed['configVars'] = {
  BALENA_HOST_CONFIG_gpu_mem: { description: 'Define device GPU memory in megabytes.', type: 'integer', default: '16', will_reboot: true },
  BALENA_HOST_CONFIG_dtoverlay: { description: 'Define DT overlays', type: 'string', will_reboot: true },
  BALENA_HOST_CONFIG_dtparam: { description: 'Define DT parameters', type: 'string', default: '"i2c_arm=on","spi=on","audio=on"', will_reboot: true },
  BALENA_HOST_CONFIG_disable_splash: { description: 'Enable / Disable the rainbow splash screen', type: 'boolean', enum: ['0', '1'], default: '1', will_reboot: true },
};
const COMMON_CONFIG: DeviceTypeSeed['configVars'] = {
  BALENA_SUPERVISOR_POLL_INTERVAL: { description: 'Define the balena API polling interval in milliseconds', type: 'integer', default: String(DEFAULT_POLL_INTERVAL_MS) },
  BALENA_SUPERVISOR_PERSISTENT_LOGGING: { description: 'Enable persistent logging', type: 'boolean', enum: ['false', 'true'], default: 'false', will_reboot: true },
  BALENA_SUPERVISOR_DELTA: { description: 'Enable / Disable delta updates', type: 'boolean', enum: ['false', 'true'], default: 'false' },
};

export const DEVICE_TYPES: DeviceTypeSeed[] = [
  { slug: 'raspberrypi3', name: 'Raspberry Pi 3', arch: 'armv7hf', aliases: ['raspberry-pi2'], led: true, configVars: { ...COMMON_CONFIG, ...RPI_CONFIG } },
  { slug: 'raspberrypi3-64', name: 'Raspberry Pi 3 (using 64bit OS)', arch: 'aarch64', led: true, configVars: { ...COMMON_CONFIG, ...RPI_CONFIG } },
  { slug: 'raspberrypi4-64', name: 'Raspberry Pi 4 (using 64bit OS)', arch: 'aarch64', aliases: ['raspberrypi4'], led: true, configVars: { ...COMMON_CONFIG, ...RPI_CONFIG } },
  // Assumption: 512 MB boards run one container only (spec 2 §5 needsMulticontainerSupport).
  { slug: 'raspberry-pi', name: 'Raspberry Pi (v1 / Zero / Zero W)', arch: 'rpi', aliases: ['raspberrypi'], led: true, multicontainer: false, configVars: { ...COMMON_CONFIG, ...RPI_CONFIG } },
  // Assumption: the Fin is no longer made and gets no new OS versions (spec 2 §5 noVersionDiscontinued).
  { slug: 'fincm3', name: 'Balena Fin (CM3)', arch: 'armv7hf', led: true, state: 'discontinued', configVars: { ...COMMON_CONFIG, ...RPI_CONFIG } },
  { slug: 'intel-nuc', name: 'Intel NUC', arch: 'amd64', aliases: ['nuc'], led: false, configVars: { ...COMMON_CONFIG } },
  { slug: 'generic-amd64', name: 'Generic x86_64 (GPT)', arch: 'amd64', aliases: ['genericx86-64-ext'], led: false, configVars: { ...COMMON_CONFIG } },
  { slug: 'generic-aarch64', name: 'Generic AARCH64', arch: 'aarch64', led: false, configVars: { ...COMMON_CONFIG } },
  { slug: 'beaglebone-black', name: 'BeagleBone Black', arch: 'armv7hf', led: true, configVars: { ...COMMON_CONFIG } },
  { slug: 'jetson-nano', name: 'Nvidia Jetson Nano SD-CARD', arch: 'aarch64', led: false, configVars: { ...COMMON_CONFIG } },
];

/** What a device type's contract (`data`) says about its availability; written by the seed. */
export interface DeviceTypeContractData {
  arch?: string;
  led?: boolean;
  state?: 'released' | 'discontinued' | 'upcoming';
  paidOnly?: boolean;
  multicontainer?: boolean;
}

/** The contract `data` the seed stores for a catalogue entry. */
export function deviceTypeContractData(dt: DeviceTypeSeed): DeviceTypeContractData {
  return { arch: dt.arch, led: dt.led, state: dt.state ?? 'released', paidOnly: dt.paidOnly ?? false, multicontainer: dt.multicontainer ?? true };
}

/** Spec 2 §5 device-type option states (the names are the spec's). */
export const DEVICE_TYPE_OPTION_STATES = ['ok', 'noVersionDiscontinued', 'noVersionUpcoming', 'needsPlanUpgrade', 'needsMulticontainerSupport'] as const;
export type DeviceTypeOptionState = (typeof DEVICE_TYPE_OPTION_STATES)[number];

function contractData(contract: unknown): DeviceTypeContractData {
  if (typeof contract !== 'object' || contract === null) return {};
  const data = (contract as { data?: unknown }).data;
  return typeof data === 'object' && data !== null ? (data as DeviceTypeContractData) : {};
}

/**
 * Whether a device type may be chosen for an application, from its contract. `plan` is the
 * organization's billing plan code (`undefined`: no billing, which limits nothing, as for
 * fleet roles); `needsMulticontainer` holds when the application type runs several containers.
 * A type without a contract is taken as released.
 */
export function deviceTypeOptionState(contract: unknown, context: { plan: string | undefined; needsMulticontainer: boolean }): DeviceTypeOptionState {
  const data = contractData(contract);
  if (data.state === 'discontinued') return 'noVersionDiscontinued';
  if (data.state === 'upcoming') return 'noVersionUpcoming';
  if (data.paidOnly === true && context.plan === 'free') return 'needsPlanUpgrade';
  if (data.multicontainer === false && context.needsMulticontainer) return 'needsMulticontainerSupport';
  return 'ok';
}

/** A discontinued type gets no new OS versions: the application shell warns about it. */
export function isDeviceTypeDiscontinued(contract: unknown): boolean {
  return contractData(contract).state === 'discontinued';
}

export const CPU_ARCHITECTURES = ['rpi', 'armv7hf', 'aarch64', 'i386', 'amd64'] as const;

export const APPLICATION_TYPES = [
  { slug: 'microservices', name: 'Microservices', description: 'Multiple containers, web URL, gateway mode', is_legacy: false, supports_multicontainer: true, requires_payment: false },
  { slug: 'essentials', name: 'Essentials', description: 'Single container, no web URL', is_legacy: false, supports_multicontainer: false, requires_payment: false },
  // A legacy type (spec 2 §2: legacy fleets get a warning and an upgrade-type action).
  { slug: 'starter', name: 'Starter', description: 'Legacy: single container, web URL', is_legacy: true, supports_multicontainer: false, requires_payment: false },
] as const;
