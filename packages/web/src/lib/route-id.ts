/** Spec 1 §5: ids in routes must be numeric. A positive integer, or undefined. */
export function parseRouteId(value: string | undefined): number | undefined {
  if (value === undefined || !/^[1-9]\d{0,15}$/.test(value)) return undefined;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : undefined;
}
