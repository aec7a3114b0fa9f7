import { randomInt } from 'node:crypto';
import type { Db } from '../../infra/db/db.js';
import { selectDeviceNamesTaken } from './device.repository.js';

// A device registered without a name gets a readable one (balena names devices this way
// too): an adjective and a noun, e.g. `misty-falcon`.
export const ADJECTIVES: readonly string[] = [
  'amber', 'ancient', 'bold', 'brave', 'bright', 'calm', 'clever', 'cosmic', 'crimson', 'dawn', 'eager', 'gentle',
  'golden', 'hidden', 'icy', 'jolly', 'lively', 'lucky', 'misty', 'noble', 'polar', 'proud', 'quiet', 'rapid',
  'royal', 'rustic', 'silent', 'silver', 'snowy', 'sunny', 'swift', 'twilight', 'velvet', 'wild', 'windy', 'young',
];
export const NOUNS: readonly string[] = [
  'badger', 'beacon', 'breeze', 'brook', 'canyon', 'cedar', 'comet', 'coral', 'dune', 'falcon', 'fern', 'fjord',
  'glacier', 'grove', 'harbor', 'heron', 'island', 'lagoon', 'lake', 'maple', 'meadow', 'mesa', 'moon', 'otter',
  'pine', 'prairie', 'reef', 'river', 'sparrow', 'star', 'summit', 'thunder', 'tundra', 'valley', 'willow', 'wolf',
];

const pick = (words: readonly string[]) => words[randomInt(words.length)]!;

export function randomDeviceName(): string {
  return `${pick(ADJECTIVES)}-${pick(NOUNS)}`;
}

/** How many random names one registration tries against its fleet before adding a number. */
const CANDIDATES = 24;

/**
 * Rule: a generated name is not already used in the device's fleet (two `lively-breeze` rows
 * in one device table are indistinguishable). One bounded query checks a batch of candidates;
 * when every one is taken (a fleet far larger than the 1,296 word pairs), the name gets a
 * number, e.g. `misty-falcon-4821`. Names a user chose are never changed.
 */
export async function freshDeviceName(db: Db, fleetId: unknown): Promise<string> {
  const candidates = [...new Set(Array.from({ length: CANDIDATES }, randomDeviceName))];
  if (typeof fleetId !== 'number') return candidates[0]!;
  const taken = await selectDeviceNamesTaken(db, fleetId, candidates);
  return candidates.find((name) => !taken.has(name)) ?? `${candidates[0]!}-${randomInt(1000, 10000)}`;
}
