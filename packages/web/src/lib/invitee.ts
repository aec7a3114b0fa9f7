/** The invite dialogs' "looks like an email" test (spec 1 §5, spec 2 §7): an @ makes it an email invite, else a username. */
export function looksLikeEmail(value: string): boolean {
  return value.includes('@');
}
