/**
 * An origin is allowed when it equals a configured entry, or when the entry has no port
 * (`http://localhost`) and only the port differs, or the entry ends with `*` and prefixes it.
 */
export function originAllowed(origin: string, allowed: string[]): boolean {
  for (const entry of allowed) {
    if (entry === '*' || entry === origin) return true;
    if (entry.endsWith('*') && origin.startsWith(entry.slice(0, -1))) return true;
    if (!/:\d+$/.test(entry) && origin.startsWith(`${entry}:`) && /^\d+$/.test(origin.slice(entry.length + 1)))
      return true;
  }
  return false;
}
