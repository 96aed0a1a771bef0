import learned from './name-verbs.json';

/**
 * What a function does, read off its name when the name says it: a verb-led identifier becomes
 * a verb phrase in the third person (`getUserById` -> "gets user by ID", `parse_http_response`
 * -> "parses HTTP response", `is_valid` -> "tells whether valid", `to_json` -> "converts to
 * JSON", `range_to_tuple` -> "converts range to tuple"), and a constructor's name by its
 * convention (`NewRouter` -> "creates router", `from_path` -> "creates an instance from path",
 * `initialize` -> "initializes an instance"). Names that do not start with a verb (`handler_2`,
 * `RateLimiter`) give nothing: a name is not invented.
 *
 * Which first words are verbs: the list below (from the grammar of common names) and the words
 * of `name-verbs.json`, learned at development time from 121,603 docstring / function pairs of
 * Debian packages (ml/verbs: a word whose functions' docstrings start with it as a verb, "Gets
 * the ..." for `get_user`).
 */
const VERBS = new Set([
  // verbs names commonly start with
  ...`accept add adjust align allocate append apply archive assert assign attach authenticate authorize await build cache calculate
  call cancel capture check clamp clean clear clone close collect combine commit compare compile compress compute concat configure
  connect construct consume convert copy count create debounce decode decrypt deduplicate delete deserialize destroy detect diff
  disable disconnect dispatch display download draw drop dump emit enable encode encrypt enqueue ensure enumerate escape evaluate
  execute expand export extract fetch fill filter find finish flatten flush fold format generate group guess handle hash hide
  highlight import increment index init initialize insert install interpolate invoke iterate join keep list load lock log lookup
  make map marshal mark match measure merge migrate mock modify mount move normalize normalise notify observe open order pad paginate parse
  patch pick ping play poll pop populate post predict prepare prepend print process publish pull push put query queue quote
  raise read rebuild receive reconnect record redirect reduce refresh register reload remove rename render reorder repeat
  replace report request require reset resize resolve restore retry return reverse rotate round run sample sanitize sanitise
  save scale scan schedule search seed select send serialize serve set setup shift show shuffle sign simplify skip sleep slice
  slugify sort split start stop store stream strip submit subscribe sum swap sync take tear test throttle toggle tokenize
  trace track transform translate traverse trim truncate try unlock unmarshal unmount unpack unregister unsubscribe unwrap update upload
  upsert validate verify visit wait walk warn watch wrap write yield zip`.split(/\s+/),
  ...learned.verbs,
]);

const PREDICATES = new Set([
  'is',
  'has',
  'can',
  'should',
  'contains',
  'exists',
  'needs',
  'supports',
  'matches',
  'includes',
  'equals',
]);

/** What a class's initializer is called: Ruby's `initialize`, Python's `__init__`, JavaScript's `constructor` (not Go's `init`, a package's). */
const CONSTRUCTORS = new Set(['initialize', '__init__', 'constructor']);

const PHRASAL: Record<string, string> = {
  setup: 'sets up',
  init: 'initializes',
  teardown: 'tears down',
  cleanup: 'cleans up',
  lookup: 'looks up',
};

const ACRONYMS = new Set(
  'api ascii csv css db dns dom gif html http https id ids io ip jpeg json jwt md os pdf png rgb sha sql ssh ssl svg tcp tls ui uri url urls utf uuid xml yaml'.split(
    ' ',
  ),
);

/** `parseHTTPResponse_v2` -> ['parse', 'http', 'response', 'v2']. */
export function identifierWords(identifier: string): string[] {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.toLowerCase())
    .filter(Boolean);
}

export function thirdPerson(verb: string): string {
  if (PHRASAL[verb]) return PHRASAL[verb];
  if (/(?:s|sh|ch|x|z|o)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

/** The third person of every listed verb (`fetches`, `copies`), for names already written in it. */
const THIRD_PERSON_FORMS = new Set([...VERBS].map(thirdPerson));

function wordsOf(parts: string[]): string {
  return parts.map((p) => (ACRONYMS.has(p) ? p.toUpperCase() : p)).join(' ');
}

/** "gets user by ID" for `getUserById`; undefined when the name does not start with a verb. */
export function whatItDoes(identifier: string): string | undefined {
  const parts = identifierWords(identifier);
  if (parts.length === 0) return undefined;
  const [first, ...rest] = parts;
  if (PREDICATES.has(first) && rest.length)
    return `tells whether ${first === 'is' ? '' : `${first === 'has' ? 'it has' : first} `}${wordsOf(rest)}`.replace(
      /\s+/g,
      ' ',
    );
  if ((first === 'to' || first === 'as') && rest.length) return `converts to ${wordsOf(rest)}`;
  // `range_to_tuple`, `dictToXml`: a conversion between the two things named on either side
  const to = parts.findIndex((p, i) => i > 0 && i < parts.length - 1 && p === 'to');
  if (to > 0 && !VERBS.has(first) && !THIRD_PERSON_FORMS.has(first))
    return `converts ${wordsOf(parts.slice(0, to))} to ${wordsOf(parts.slice(to + 1))}`;
  if (first === 'on' && rest.length) return `handles ${wordsOf(rest)}`;
  // constructors by convention: Go's `NewRouter`, `new_client`, `from_dict` class methods, `new`, `initialize`, `__init__`
  if (first === 'new') return rest.length ? `creates ${wordsOf(rest)}` : 'creates an instance';
  if (first === 'from' && rest.length) return `creates an instance from ${wordsOf(rest)}`;
  if (CONSTRUCTORS.has(identifier) || (parts.length === 1 && CONSTRUCTORS.has(first))) return 'initializes an instance';
  // A name already in the third person (`handles_ambiguity`, `returnsEmpty`) reads as it is.
  if (THIRD_PERSON_FORMS.has(first) && rest.length) return `${first} ${wordsOf(rest)}`;
  if (!VERBS.has(first) && !PHRASAL[first]) return undefined;
  return rest.length ? `${thirdPerson(first)} ${wordsOf(rest)}` : undefined;
}
