import { DEFAULT_POLL_INTERVAL_MS } from '../device/device.rules.js';
import type { ConfigVarProperty } from '../variables/variables.rules.js';
/**
 * The seeded device-type catalogue. Each contract records LED support (identify) and the
 * schema of the configuration variables the type accepts (spec 2 "config variable schema").
 */
/** How balenaOS is put on a board (balena contracts: `data.media`, `data.flashProtocol`). */
export interface DeviceTypeMedia {
  /** Where the OS boots from: 'sdcard', 'usb_mass_storage', 'internal' (flashed from alternative media), 'image' (a disk image). */
  defaultBoot?: 'sdcard' | 'usb_mass_storage' | 'internal' | 'image';
  /** Alternative boot media, in preference order (the first is what the flasher image is written to). */
  altBoot?: ('sdcard' | 'usb_mass_storage' | 'network')[];
  /** A board-specific provisioning tool (RPIBOOT: the board's eMMC appears as a USB disk). */
  flashProtocol?: 'RPIBOOT' | 'jetsonFlash' | 'radxaFlash';
}

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
  /**
   * false: the type's OS runs a single container only (spec 2 §5 needsMulticontainerSupport).
   * No board of balena's catalogue says so (every balenaOS runs several containers), so no
   * seeded type sets it; the rule stays for a contract that does.
   */
  multicontainer?: boolean;
  media: DeviceTypeMedia;
  /**
   * Install-instruction partials, balena's contract `partials` (templated with the contract,
   * `{{name}}`): `bootDevice` (how to start it after flashing), `bootDeviceExternal` (how to
   * boot the flasher), `flashIndicator`, `instructions` (the whole procedure for image/tool installs).
   */
  partials: Record<string, string[]>;
  /** The configuration variables the type accepts (spec 2 §3 config variable schema property). */
  configVars: Record<string, ConfigVarProperty>;
}

const RPI_CONFIG: DeviceTypeSeed['configVars'] = {
  BALENA_HOST_CONFIG_gpu_mem: { description: 'Define device GPU memory in megabytes.', type: 'integer', default: '16', format: 'megabytes', will_reboot: true },
  BALENA_HOST_CONFIG_dtoverlay: { description: 'Define DT overlays', type: 'string', format: 'list', will_reboot: true },
  BALENA_HOST_CONFIG_dtparam: { description: 'Define DT parameters', type: 'string', default: '"i2c_arm=on","spi=on","audio=on"', format: 'list', will_reboot: true },
  BALENA_HOST_CONFIG_disable_splash: { description: 'Enable / Disable the rainbow splash screen', type: 'boolean', enum: ['0', '1'], default: '1', will_reboot: true },
};
const COMMON_CONFIG: DeviceTypeSeed['configVars'] = {
  BALENA_SUPERVISOR_POLL_INTERVAL: { description: 'Define the balena API polling interval in milliseconds', type: 'integer', default: String(DEFAULT_POLL_INTERVAL_MS), format: 'milliseconds' },
  BALENA_SUPERVISOR_PERSISTENT_LOGGING: { description: 'Enable persistent logging', type: 'boolean', enum: ['false', 'true'], default: 'false', will_reboot: true },
  BALENA_SUPERVISOR_DELTA: { description: 'Enable / Disable delta updates', type: 'boolean', enum: ['false', 'true'], default: 'false' },
  // A choice of three (the configuration pages' edit dialog offers it as a select; issue 16).
  BALENA_HOST_FIREWALL_MODE: { description: 'Host OS firewall mode', type: 'string', enum: ['off', 'on', 'auto'], default: 'off' },
};

// Install partials, written for Flotilla in the shape balena's contracts use.
const SD_CARD: DeviceTypeMedia = { defaultBoot: 'sdcard', altBoot: ['usb_mass_storage', 'network'] };
const POWER_ON = { bootDevice: ['Connect the {{name}} to power'] };
const X86_USB: Pick<DeviceTypeSeed, 'media' | 'partials'> = {
  media: { defaultBoot: 'internal', altBoot: ['usb_mass_storage'] },
  partials: {
    bootDeviceExternal: [
      'Make sure no other USB key is plugged into the {{name}}',
      'Connect a keyboard and power on the {{name}}',
      "Open the firmware's boot menu while it starts (often F10 or F12) and choose the USB key",
    ],
    flashIndicator: ['the {{name}} has powered itself off'],
    bootDevice: ['Power on the {{name}}'],
  },
};

/**
 * The catalogue, named as balena names it (slug, name, CPU architecture and aliases of
 * balena's `hw.device-type` contracts), so that the slugs balena-sdk and balena-cli users
 * type resolve here too.
 */
export const DEVICE_TYPES: DeviceTypeSeed[] = [
  { slug: 'raspberrypi3', name: 'Raspberry Pi 3', arch: 'armv7hf', led: true, media: SD_CARD, partials: POWER_ON, configVars: { ...COMMON_CONFIG, ...RPI_CONFIG } },
  { slug: 'raspberry-pi2', name: 'Raspberry Pi 2', arch: 'armv7hf', led: true, media: SD_CARD, partials: POWER_ON, configVars: { ...COMMON_CONFIG, ...RPI_CONFIG } },
  { slug: 'raspberrypi3-64', name: 'Raspberry Pi 3 (using 64bit OS)', arch: 'aarch64', led: true, media: SD_CARD, partials: POWER_ON, configVars: { ...COMMON_CONFIG, ...RPI_CONFIG } },
  { slug: 'raspberrypi4-64', name: 'Raspberry Pi 4 (using 64bit OS)', arch: 'aarch64', aliases: ['raspberrypi4'], led: true, media: SD_CARD, partials: POWER_ON, configVars: { ...COMMON_CONFIG, ...RPI_CONFIG } },
  { slug: 'raspberry-pi', name: 'Raspberry Pi (v1 / Zero / Zero W)', arch: 'rpi', aliases: ['raspberrypi'], led: true, media: SD_CARD, partials: POWER_ON, configVars: { ...COMMON_CONFIG, ...RPI_CONFIG } },
  // Assumption: the Fin is no longer made and gets no new OS versions (spec 2 §5 noVersionDiscontinued).
  {
    slug: 'fincm3',
    name: 'Balena Fin (CM3)',
    arch: 'armv7hf',
    led: true,
    state: 'discontinued',
    media: { defaultBoot: 'internal', flashProtocol: 'RPIBOOT' },
    partials: {
      connectDevice: ['Hold the {{name}} unpowered, and connect it to your computer with a micro-USB cable.', 'Power the {{name}} on: its eMMC appears on your computer as a USB disk.'],
      disconnectDevice: ['Disconnect the micro-USB cable and power the {{name}} off.'],
      bootDevice: ['Connect the {{name}} to power'],
    },
    configVars: { ...COMMON_CONFIG, ...RPI_CONFIG },
  },
  { slug: 'intel-nuc', name: 'Intel NUC', arch: 'amd64', aliases: ['nuc'], led: false, ...X86_USB, configVars: { ...COMMON_CONFIG } },
  { slug: 'generic-amd64', name: 'Generic x86_64 (GPT)', arch: 'amd64', led: false, ...X86_USB, configVars: { ...COMMON_CONFIG } },
  { slug: 'genericx86-64-ext', name: 'Generic x86_64 (legacy MBR)', arch: 'amd64', led: false, ...X86_USB, configVars: { ...COMMON_CONFIG } },
  {
    slug: 'generic-aarch64',
    name: 'Generic AARCH64',
    arch: 'aarch64',
    led: false,
    media: { defaultBoot: 'image' },
    partials: { instructions: ['Boot the {{name}} image you downloaded in your virtual machine or on your board, as its firmware expects.'] },
    configVars: { ...COMMON_CONFIG },
  },
  {
    slug: 'beaglebone-black',
    name: 'BeagleBone Black',
    arch: 'armv7hf',
    aliases: ['beaglebone'],
    led: true,
    media: { defaultBoot: 'internal', altBoot: ['sdcard'] },
    partials: {
      bootDeviceExternal: ['Hold down the boot button next to the SD card slot while you power up the {{name}}, until its blue LEDs flash quickly.'],
      flashIndicator: ['every LED is off'],
      bootDevice: ['Disconnect and reconnect power to the {{name}}'],
    },
    configVars: { ...COMMON_CONFIG },
  },
  { slug: 'jetson-nano', name: 'Nvidia Jetson Nano SD-CARD', arch: 'aarch64', led: false, media: { defaultBoot: 'sdcard', flashProtocol: 'jetsonFlash' }, partials: POWER_ON, configVars: { ...COMMON_CONFIG } },
  {
    slug: 'radxa-zero',
    name: 'Radxa Zero',
    arch: 'aarch64',
    led: true,
    media: { defaultBoot: 'internal', flashProtocol: 'radxaFlash' },
    partials: {
      instructions: [
        "Put the {{name}} in maskrom mode as its vendor describes, connected to your computer through its USB 2 port.",
        "Load the vendor's eMMC loader so that the board's eMMC appears as a USB disk.",
        'Write the OS image to that disk with Etcher.',
        'When writing completes, power the {{name}} off and on again.',
      ],
    },
    configVars: { ...COMMON_CONFIG },
  },
];

/** What a device type's contract (`data`) says about its availability; written by the seed. */
export interface DeviceTypeContractData {
  arch?: string;
  led?: boolean;
  state?: 'released' | 'discontinued' | 'upcoming';
  paidOnly?: boolean;
  multicontainer?: boolean;
  /** balena's `data.media` and `data.flashProtocol`: balena-sdk's `deviceType.getInstallMethod` reads them. */
  media?: { defaultBoot?: string; altBoot?: string[] };
  flashProtocol?: string;
}

/** The contract `data` the seed stores for a catalogue entry. */
export function deviceTypeContractData(dt: DeviceTypeSeed): DeviceTypeContractData {
  const { flashProtocol, ...media } = dt.media;
  return {
    arch: dt.arch,
    led: dt.led,
    state: dt.state ?? 'released',
    paidOnly: dt.paidOnly ?? false,
    multicontainer: dt.multicontainer ?? true,
    media,
    ...(flashProtocol ? { flashProtocol } : {}),
  };
}

/**
 * A device type's whole contract as the seed stores it (balena's `hw.device-type` shape:
 * slug, name, aliases, `data`, `partials`), plus Flotilla's configuration-variable schema.
 */
export function deviceTypeContract(dt: DeviceTypeSeed): Record<string, unknown> {
  return {
    slug: dt.slug,
    name: dt.name,
    type: 'hw.device-type',
    version: '1',
    aliases: dt.aliases ?? [],
    data: deviceTypeContractData(dt),
    partials: dt.partials,
    configVariables: dt.configVars,
  };
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

/**
 * The fleet architectures a device's architecture also runs, as balena defines it
 * (balena-sdk `models.os.isArchitectureCompatibleWith`): a 64-bit ARM device runs armv7hf and
 * rpi (ARMv6) containers, an armv7hf device rpi ones. Nothing runs the other way round.
 */
const ARCHITECTURES_ALSO_RUN: Readonly<Record<string, readonly string[]>> = {
  aarch64: ['armv7hf', 'rpi'],
  armv7hf: ['rpi'],
};

/**
 * Whether a device whose type has CPU architecture `deviceArch` may belong to a fleet whose
 * default device type has `fleetArch` (register, create, move). One rule for server and dashboard.
 */
export function isArchitectureCompatibleWith(deviceArch: string, fleetArch: string): boolean {
  return deviceArch === fleetArch || (Object.hasOwn(ARCHITECTURES_ALSO_RUN, deviceArch) && ARCHITECTURES_ALSO_RUN[deviceArch]!.includes(fleetArch));
}

export const APPLICATION_TYPES = [
  { slug: 'microservices', name: 'Microservices', description: 'Multiple containers, web URL, gateway mode', is_legacy: false, supports_multicontainer: true, requires_payment: false },
  { slug: 'essentials', name: 'Essentials', description: 'Single container, no web URL', is_legacy: false, supports_multicontainer: false, requires_payment: false },
  // A legacy type (spec 2 §2: legacy fleets get a warning and an upgrade-type action).
  { slug: 'starter', name: 'Starter', description: 'Legacy: single container, web URL', is_legacy: true, supports_multicontainer: false, requires_payment: false },
] as const;

/** One question of the image-configuration dialog (balena's device-type.json `options`). */
export interface DeviceTypeOption {
  name: string;
  message: string;
  type?: 'list' | 'text' | 'password' | 'number';
  choices?: string[];
  default?: string | number;
  min?: number;
  when?: Record<string, string>;
  isGroup?: boolean;
  isCollapsible?: boolean;
  collapsed?: boolean;
  options?: DeviceTypeOption[];
}

/**
 * What a downloaded OS image asks for, as balena's device-type.json lists it: the network
 * (ethernet or wifi, with its name and passphrase) and how often the device checks for
 * updates. The same for every type in the catalogue.
 */
export const DEVICE_TYPE_IMAGE_OPTIONS: readonly DeviceTypeOption[] = [
  {
    isGroup: true,
    name: 'network',
    message: 'Network',
    options: [
      { name: 'network', message: 'Network Connection', type: 'list', choices: ['ethernet', 'wifi'] },
      { name: 'wifiSsid', message: 'Wifi SSID', type: 'text', when: { network: 'wifi' } },
      { name: 'wifiKey', message: 'Wifi Passphrase', type: 'password', when: { network: 'wifi' } },
    ],
  },
  {
    isGroup: true,
    name: 'advanced',
    message: 'Advanced',
    isCollapsible: true,
    collapsed: true,
    options: [{ name: 'appUpdatePollInterval', message: 'Check for updates every X minutes', type: 'number', min: 10, default: 10 }],
  },
];

/**
 * A device type as the legacy `GET /device-types/v1` lists it (balena's device-type.json
 * manifest; balena-sdk `config.getDeviceTypes`, `getDeviceTypeManifestBySlug`,
 * `getDeviceOptions`), from the contract the seed stores.
 */
export function deviceTypeManifest(row: { slug: string; name: string; arch: string; aliases: string[]; contract: unknown }): Record<string, unknown> {
  const data = contractData(row.contract);
  const partials = (row.contract as { partials?: { instructions?: unknown } } | null)?.partials;
  return {
    slug: row.slug,
    name: row.name,
    arch: row.arch,
    aliases: row.aliases,
    // balena's device-type.json spells states in capitals.
    state: (data.state ?? 'released').toUpperCase(),
    ...(Array.isArray(partials?.instructions) ? { instructions: partials.instructions } : {}),
    options: DEVICE_TYPE_IMAGE_OPTIONS,
  };
}
