import { APPLICATION_NAME_SUGGESTION_RETRIES } from '@flotilla/model';

// Spec 2 §2: the create dialog suggests a random adjective-noun pair as the name.
const ADJECTIVES = [
  'amber', 'brave', 'calm', 'swift', 'quiet', 'bold', 'lucky', 'misty', 'sunny', 'royal', 'silver', 'polar',
  'gentle', 'rapid', 'shiny', 'hidden', 'golden', 'crimson', 'frosty', 'rustic', 'cosmic', 'wild', 'noble', 'vivid',
];
const NOUNS = [
  'harbor', 'falcon', 'comet', 'river', 'meadow', 'beacon', 'canyon', 'glacier', 'lagoon', 'summit', 'willow', 'breeze',
  'otter', 'pine', 'island', 'ember', 'heron', 'quartz', 'delta', 'thunder', 'orchid', 'badger', 'galaxy', 'prairie',
];

const pick = (words: readonly string[], random: () => number) => words[Math.floor(random() * words.length)] ?? words[0]!;

/**
 * Spec 2 §5/§9: a suggested name avoids the organization's existing names (compared
 * case-insensitively, as names are unique that way), drawing again up to 500 times. When
 * every draw clashes the last one is returned; the name rules then report the clash.
 */
export function suggestFleetName(existingNames: readonly string[] = [], random: () => number = Math.random): string {
  const taken = new Set(existingNames.map((n) => n.toLowerCase()));
  let name = `${pick(ADJECTIVES, random)}-${pick(NOUNS, random)}`;
  for (let retry = 0; retry < APPLICATION_NAME_SUGGESTION_RETRIES && taken.has(name); retry++) {
    name = `${pick(ADJECTIVES, random)}-${pick(NOUNS, random)}`;
  }
  return name;
}
