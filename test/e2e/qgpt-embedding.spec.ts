import { useRankingStore } from './support/ranking';

/**
 * Offline, relevance and neural code search blend the shipped code embedding (ml/embedding) into
 * their ranking. In a store this small the words already pick the right snippet for most questions
 * (these first three guard that the blend keeps it so); the embedding decides what the words leave
 * open: for "generate a random password", of the two other snippets named after passwords, the one
 * that derives a hash from one comes before the one that prompts for one (without the embedding
 * the prompt comes first: its `print('Password for', user)` repeats the word).
 * Search does the same for a query written as a sentence (it fuses its word ranking with the
 * embedding's order); for "remove a file from disk" its words alone put `file_label` first.
 */
const SNIPPETS: Record<string, string> = {
  fetch:
    'def get_page(url):\n    resp = requests.get(url, timeout=10)\n    resp.raise_for_status()\n    return resp.text\n',
  count: 'def page_count(document):\n    return len(document.pages)\n',
  digest: 'def store_password(password, salt):\n    return hashlib.sha256(salt + password.encode()).hexdigest()\n',
  ask: "def ask_password(user):\n    print('Password for', user)\n    return input()\n",
  unlink: 'def discard_file(path):\n    if os.path.exists(path):\n        os.unlink(path)\n',
  label: "def file_label(name, kind):\n    return f'{kind}: {name}'\n",
  gen: "def new_password(length=16):\n    alphabet = string.ascii_letters + string.digits\n    return ''.join(secrets.choice(alphabet) for _ in range(length))\n",
};

describe('offline code embedding in relevance, neural code search and search', () => {
  const { ids, relevance, ncs, search } = useRankingStore(SNIPPETS);

  it.each([
    ['download a web page', 'fetch'],
    ['hash a password', 'digest'],
    ['remove a file from disk', 'unlink'],
  ])('"%s" finds %s first', async (question, expected) => {
    expect((await ncs(question))[0]).toBe(ids.get(expected));
    expect((await relevance(question))[0]).toBe(ids.get(expected));
    expect((await search(question))[0]).toBe(ids.get(expected));
  });

  it('orders what the words leave open by meaning', async () => {
    for (const found of [await ncs('generate a random password'), await relevance('generate a random password')]) {
      expect(found[0]).toBe(ids.get('gen'));
      const [digest, ask] = [found.indexOf(ids.get('digest')), found.indexOf(ids.get('ask'))];
      expect(digest).toBeGreaterThan(0);
      expect(ask < 0 || digest < ask).toBe(true);
    }
    // Search fuses its word ranking with the embedding's order: the snippet that makes a password
    // comes before the one that only asks for one (words alone put it last).
    const found = await search('generate a random password');
    expect(found.indexOf(ids.get('gen')!)).toBeGreaterThanOrEqual(0);
    expect(found.indexOf(ids.get('gen')!)).toBeLessThan(found.indexOf(ids.get('ask')!));
  });

  it('leaves names and keywords to the words: an identifier, or words without a sentence, rank as before', async () => {
    // "file label" is keywords, not a sentence: the snippet named after both comes first.
    expect((await search('file label'))[0]).toBe(ids.get('label'));
    expect((await search('discard_file'))[0]).toBe(ids.get('unlink'));
  });
});
