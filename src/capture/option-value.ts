/** An option's value as an error message shows it: JSON where it can be, `function` for functions. */
export function describeOptionValue(value: unknown): string {
  if (typeof value === 'function') return 'function';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
