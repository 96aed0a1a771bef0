/**
 * `items` in parts of at most `size`: SQLite allows 32766 bound parameters, so IN (...) lists
 * of ids stay far below that, one statement per part.
 */
export function chunks<T>(items: T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
