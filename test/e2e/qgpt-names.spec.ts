import { useRankingStore } from './support/ranking';

/**
 * Relevance weighs names as search does: a typo'd identifier that is also a common word
 * (`length`, `format`, `remove` appear in many bodies) finds the function *named* so first, on
 * /qgpt/relevance and /search/neural_code as on /assets/search; a question still finds the
 * function that does what it asks.
 */
const SNIPPETS: Record<string, string> = {
  // the functions named after the common words: short bodies that barely mention them
  length: 'def length(self):\n    return self._size\n',
  format: 'def format(record, pattern):\n    return pattern % record.fields\n',
  remove: 'def remove(self, key):\n    del self._items[key]\n    self._size -= 1\n',
  // bodies that say the common words again and again
  truncate:
    'def truncate(text, length):\n    """Cut text to at most length characters."""\n    if len(text) <= length:\n        return text\n' +
    '    length = max(0, length - 1)\n    return text[:length] + "…"\n',
  pad: 'def pad_to(text, length, fill=" "):\n    length = max(length, len(text))\n    return text + fill * (length - len(text))\n',
  window:
    'def sliding_window(seq, length):\n    for start in range(0, len(seq) - length + 1):\n        yield seq[start:start + length]\n',
  report:
    'def print_report(rows):\n    header = "{:<20}{:>10}".format("name", "total")\n    lines = ["{:<20}{:>10}".format(r.name, r.total) for r in rows]\n' +
    '    return "\\n".join([header] + lines).format()\n',
  money: 'def money(amount, currency):\n    return "{} {:.2f}".format(currency, amount).format()\n',
  dedupe:
    'def dedupe(items):\n    seen = set()\n    for item in list(items):\n        if item in seen:\n            items.remove(item)\n' +
    '        else:\n            seen.add(item)\n    return items\n',
  prune:
    'def prune(tree, dead):\n    for node in dead:\n        tree.remove(node)\n        tree.edges.remove(node)\n    return tree\n',
};

describe('relevance weighs names (typo-tolerant, as search)', () => {
  const { ids, relevance, ncs } = useRankingStore(SNIPPETS);

  it.each([
    ['lenght', 'length'], // transposition
    ['lngth', 'length'], // deletion
    ['forat', 'format'], // deletion
    ['formst', 'format'], // substitution
    ['removeb', 'remove'], // insertion
    ['reomve', 'remove'], // transposition
  ])('%s finds the function named %s first, though other bodies say it more often', async (query, key) => {
    expect({ query, relevance: (await relevance(query))[0] }).toEqual({ query, relevance: ids.get(key) });
    expect({ query, ncs: (await ncs(query))[0] }).toEqual({ query, ncs: ids.get(key) });
  });

  it('the name is one signal among others: a question finds the function that does what it asks', async () => {
    expect((await relevance('cut the text to a maximum length with an ellipsis'))[0]).toBe(ids.get('truncate'));
    expect((await relevance('pad text to a length with a fill character'))[0]).toBe(ids.get('pad'));
    expect((await relevance('remove duplicate items seen twice'))[0]).toBe(ids.get('dedupe'));
  });
});
