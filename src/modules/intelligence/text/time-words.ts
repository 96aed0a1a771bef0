import * as chrono from 'chrono-node';

/** A stretch of time a question names: [from, to), and the words that named it. */
export interface NamedTime {
  from: Date;
  to: Date;
  /** The words of the question that name it ("last May", "two weeks ago"). */
  text: string;
}

const DAY = 86_400_000;
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH_WORD = `(${MONTHS.join('|')}|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)`;
const monthIndex = (word: string) => MONTHS.findIndex((m) => m.startsWith(word.toLowerCase().slice(0, 3)));

/**
 * chrono's English casual parser, with what it leaves out that questions about memories say:
 * "last May" / "this March" / "next June" (a month relative to today) and "in 2023" (a year).
 */
const parser = (() => {
  const custom = chrono.casual.clone();
  custom.parsers.push({
    pattern: () => new RegExp(`\\b(last|this|next|past)\\s+${MONTH_WORD}\\b`, 'i'),
    extract: (context, match) => {
      const month = monthIndex(match[2]);
      const ref = context.reference.instant;
      const current = ref.getUTCMonth();
      let year = ref.getUTCFullYear();
      const which = match[1].toLowerCase();
      if (which === 'last' || which === 'past') year -= month >= current ? 1 : 0;
      else if (which === 'next') year += month <= current ? 1 : 0;
      return { year, month: month + 1 };
    },
  });
  custom.parsers.push({
    pattern: () => /\b(?:in|during|of|since|from)\s+((?:19|20)\d\d)\b(?!\s*[:/.-]\d)/i,
    extract: (_context, match) => ({ year: Number(match[1]) }),
  });
  return custom;
})();

/**
 * The stretches of time a text names, relative to `now`: a day ("yesterday", "two weeks ago",
 * "on 7 May 2023"), a month ("May 2023", "last May") or a year ("in 2023", "last year"), each
 * as wide as what it says (a day named relatively, "two weeks ago", is taken as ±3 days).
 */
export function namedTimes(text: string, now: Date = new Date()): NamedTime[] {
  let results: chrono.ParsedResult[];
  try {
    results = parser.parse(text, { instant: now, timezone: 0 }, { forwardDate: false });
  } catch {
    return [];
  }
  const out: NamedTime[] = [];
  for (const r of results) {
    // A day or month named without its year ("on May 2nd", "in March") is the latest one that has
    // begun: a memory is about the past, and chrono takes the nearest one, which can be ahead.
    const back =
      !r.start.isCertain('year') &&
      r.start.isCertain('month') &&
      (spanOf(r.start, r.text)?.from.getTime() ?? 0) > now.getTime()
        ? 1
        : 0;
    const range = spanOf(r.start, r.text, back);
    if (!range) continue;
    const end = r.end ? spanOf(r.end, r.text, back) : null;
    out.push({ from: range.from, to: end && end.to > range.from ? end.to : range.to, text: r.text });
  }
  return out;
}

function spanOf(c: chrono.ParsedComponents, text: string, yearsBack = 0): { from: Date; to: Date } | null {
  const got = c.get('year');
  if (got === null || got === undefined) return null;
  const year = got - yearsBack;
  const month = c.get('month');
  const day = c.get('day');
  if (c.isCertain('day') && month) {
    const start = Date.UTC(year, month - 1, day ?? 1);
    const relative = /\bago\b|\blast\b|\bweek/i.test(text);
    const slack = relative ? 3 * DAY : 0;
    return { from: new Date(start - slack), to: new Date(start + DAY + slack) };
  }
  if (c.isCertain('month') && month)
    return { from: new Date(Date.UTC(year, month - 1, 1)), to: new Date(Date.UTC(year, month, 1)) };
  if (c.isCertain('year')) return { from: new Date(Date.UTC(year, 0, 1)), to: new Date(Date.UTC(year + 1, 0, 1)) };
  // "two weeks ago", "last week": chrono knows the day only as implied; a week around it.
  if (day && month) {
    const start = Date.UTC(year, month - 1, day);
    return { from: new Date(start - 3 * DAY), to: new Date(start + 4 * DAY) };
  }
  return null;
}

/**
 * How near `at` is to the named times, in [0, 1]: 1 inside one, falling off with the distance
 * to the nearest in units of its own width (a day named: days; a year: years).
 */
export function nearness(at: string | Date, times: NamedTime[]): number {
  const t = typeof at === 'string' ? Date.parse(at) : at.getTime();
  if (!Number.isFinite(t) || times.length === 0) return 0;
  let best = 0;
  for (const { from, to } of times) {
    const width = Math.max(DAY, to.getTime() - from.getTime());
    const distance = t < from.getTime() ? from.getTime() - t : t >= to.getTime() ? t - to.getTime() : 0;
    best = Math.max(best, Math.exp(-distance / width));
  }
  return best;
}

/** The text without the words that name times (they are not what it is about). */
export function withoutTimes(text: string, times: NamedTime[]): string {
  let out = text;
  for (const t of times) out = out.replace(t.text, ' ');
  return out;
}
