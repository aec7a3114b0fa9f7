import { randomInt } from 'node:crypto';

// A device registered without a name gets a readable one (balena names devices this way
// too): an adjective and a noun, e.g. `misty-falcon`.
const ADJECTIVES = [
  'amber', 'ancient', 'bold', 'brave', 'bright', 'calm', 'clever', 'cosmic', 'crimson', 'dawn', 'eager', 'gentle',
  'golden', 'hidden', 'icy', 'jolly', 'lively', 'lucky', 'misty', 'noble', 'polar', 'proud', 'quiet', 'rapid',
  'royal', 'rustic', 'silent', 'silver', 'snowy', 'sunny', 'swift', 'twilight', 'velvet', 'wild', 'windy', 'young',
];
const NOUNS = [
  'badger', 'beacon', 'breeze', 'brook', 'canyon', 'cedar', 'comet', 'coral', 'dune', 'falcon', 'fern', 'fjord',
  'glacier', 'grove', 'harbor', 'heron', 'island', 'lagoon', 'lake', 'maple', 'meadow', 'mesa', 'moon', 'otter',
  'pine', 'prairie', 'reef', 'river', 'sparrow', 'star', 'summit', 'thunder', 'tundra', 'valley', 'willow', 'wolf',
];

const pick = (words: readonly string[]) => words[randomInt(words.length)]!;

export function randomDeviceName(): string {
  return `${pick(ADJECTIVES)}-${pick(NOUNS)}`;
}
