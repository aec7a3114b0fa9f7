// Spec 2: the create dialog suggests a random adjective-noun pair as the name.
const ADJECTIVES = ['amber', 'brave', 'calm', 'swift', 'quiet', 'bold', 'lucky', 'misty', 'sunny', 'royal', 'silver', 'polar'];
const NOUNS = ['harbor', 'falcon', 'comet', 'river', 'meadow', 'beacon', 'canyon', 'glacier', 'lagoon', 'summit', 'willow', 'breeze'];

const pick = (words: string[]) => words[Math.floor(Math.random() * words.length)] ?? words[0];

export function suggestFleetName(): string {
  return `${pick(ADJECTIVES)}-${pick(NOUNS)}`;
}
