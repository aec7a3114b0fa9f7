/** Dollars as typed ('29', '29.9', '29.99') → cents; undefined when not such an amount. */
export function dollarsToCents(value: string): number | undefined {
  const v = value.trim();
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(v)) return undefined;
  const [whole, fraction = ''] = v.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}
