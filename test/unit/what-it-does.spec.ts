import file from '../../src/modules/intelligence/text/name-verbs.json';
import { whatItDoes } from '../../src/modules/intelligence/text/what-it-does';

/** A function's purpose read off its name: the listed verbs, the learned ones (name-verbs.json), nothing invented. */
describe('whatItDoes', () => {
  it.each([
    ['getUserById', 'gets user by ID'],
    ['parse_http_response', 'parses HTTP response'],
    ['fetch_rows', 'fetches rows'],
    ['is_valid', 'tells whether valid'],
    ['to_json', 'converts to JSON'],
    ['range_to_tuple', 'converts range to tuple'],
    ['dateTimeToString', 'converts date time to string'],
    ['rgb_to_hex', 'converts RGB to hex'],
    ['handles_ambiguity', 'handles ambiguity'],
    ['returnsEmptyList', 'returns empty list'],
    ['copies_file', 'copies file'],
    ['MarshalJSON', 'marshals JSON'],
    ['NewRouter', 'creates router'],
    ['new_client', 'creates client'],
    ['New', 'creates an instance'],
    ['from_dict', 'creates an instance from dict'],
    ['fromJSON', 'creates an instance from JSON'],
    ['initialize', 'initializes an instance'],
    ['__init__', 'initializes an instance'],
  ])('%s -> "%s"', (name, expected) => {
    expect(whatItDoes(name)).toBe(expected);
  });

  it.each([
    'handler_2',
    'RateLimiter',
    'RandomBytes',
    'from',
    'init',
    'newer_than',
    'status_code',
    'parse',
    'news_feed',
    'classes_of',
    'path_to',
  ])('%s says nothing: no verb leads it, or nothing follows the verb', (name) => {
    expect(whatItDoes(name)).toBeUndefined();
  });

  it('the learned verbs are a list of lowercase words, among them ones the listed verbs lack', () => {
    expect(file.pairs).toBeGreaterThan(50_000);
    expect(file.verbs.length).toBeGreaterThan(100);
    expect(file.verbs.every((v) => /^[a-z]+$/.test(v))).toBe(true);
    expect(file.verbs).toEqual(expect.arrayContaining(['get', 'infer', 'plot']));
    // words names begin with that are not verbs there
    for (const word of ['new', 'from', 'with', 'default', 'next', 'string']) expect(file.verbs).not.toContain(word);
  });
});
