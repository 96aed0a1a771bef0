import { InvalidInput } from '../errors/domain-errors';
import { SeededScoreIncrementDto } from './dto/seeded-score-increment.dto';

/** The kinds of interaction a SeededScore counts, each flagged true or not. */
const SCORE_KINDS = ['reuse', 'update', 'reference', 'priority', 'searched'] as const;
type ScoreKind = (typeof SCORE_KINDS)[number];

/** The entity property of each counter (assets and conversations name them alike). */
const COUNTER: Record<ScoreKind, string> = {
  reuse: 'scoreReuse',
  update: 'scoreUpdate',
  reference: 'scoreReference',
  priority: 'scorePriority',
  searched: 'scoreSearched',
};

export interface ScoreIncrement {
  /** The kinds flagged true, in SCORE_KINDS order. */
  kinds: ScoreKind[];
  /** Entity property -> what to add to it: one to each kind's counter, and the `scoreManual` / `scoreAutomatic` totals. */
  counters: Record<string, number>;
}

/**
 * What a SeededScoreIncrement adds to a record of the given kind, read from `asset` (or
 * `assets`) / `conversation` (or `conversations`): one to each counter flagged true. The user's
 * own interactions (reuse, update, reference, priority) also count towards `manual`; being found
 * by a search counts towards `automatic`. InvalidInput when the record's kind is missing or
 * flags nothing true.
 */
export function scoreIncrement(
  increment: SeededScoreIncrementDto | undefined,
  record: 'asset' | 'conversation',
): ScoreIncrement {
  const one = increment?.[record];
  const many = increment?.[`${record}s`];
  if (!one && !many) {
    throw new InvalidInput(
      `a SeededScoreIncrement with \`${record}\` (e.g. {"${record}": {"reuse": true}}) is required`,
    );
  }
  const kinds = SCORE_KINDS.filter((k) => one?.[k] === true || many?.[k] === true);
  if (!kinds.length) {
    throw new InvalidInput(`SeededScoreIncrement.${record} must set at least one of ${SCORE_KINDS.join(', ')} to true`);
  }
  const manual = kinds.filter((k) => k !== 'searched').length;
  const automatic = kinds.includes('searched') ? 1 : 0;
  const counters: Record<string, number> = Object.fromEntries(kinds.map((kind) => [COUNTER[kind], 1]));
  if (manual) counters.scoreManual = manual;
  if (automatic) counters.scoreAutomatic = automatic;
  return { kinds, counters };
}
