import { readFileSync } from 'node:fs';
import { CODE_EMBEDDING_FILE, CodeEmbedding, similarity } from '../../src/modules/intelligence/text/code-embedding';

/** The shipped offline code-search embedding (ml/embedding): its file, and that it places questions near their code. */
describe('offline code embedding', () => {
  const model = CodeEmbedding.load();

  const code: Record<string, string> = {
    unlink: 'def discard(path):\n    if os.path.exists(path):\n        os.unlink(path)\n',
    fetch:
      'def get_page(url):\n    resp = requests.get(url, timeout=10)\n    resp.raise_for_status()\n    return resp.text\n',
    order: 'def order_by_age(people):\n    return sorted(people, key=lambda p: p.age)\n',
    digest: 'def digest(password, salt):\n    return hashlib.sha256(salt + password.encode()).hexdigest()\n',
    stamp: 'def stamp():\n    return datetime.datetime.now().strftime("%Y-%m-%d")\n',
  };

  it.each([
    ['remove a file', 'unlink'],
    ['download a web page', 'fetch'],
    ['sort people by how old they are', 'order'],
    ['hash a password', 'digest'],
    ['current date as text', 'stamp'],
  ])('"%s" is closest to the code that does it (%s)', (question, expected) => {
    const q = model.question(question)!;
    const ranked = Object.entries(code)
      .map(([key, text]) => ({ key, sim: similarity(q, model.code(text)!) }))
      .sort((a, b) => b.sim - a.sim);
    expect(ranked[0].key).toBe(expected);
  });

  it('gives unit vectors of its dimension, and none for text it has no term of', () => {
    const v = model.code(code.fetch)!;
    expect(v).toHaveLength(model.dim);
    expect(similarity(v, v)).toBeCloseTo(1, 5);
    expect(similarity(model.question('hash a password')!, model.question('hash a password')!)).toBeCloseTo(1, 5);
    expect(model.question('zzqx qqzv')).toBeUndefined();
    expect(model.code('')).toBeUndefined();
  });

  it('refuses a file that is not one, or is cut short', () => {
    const bytes = readFileSync(CODE_EMBEDDING_FILE);
    expect(() => CodeEmbedding.fromBuffer(Buffer.from('TRVL0000'))).toThrow(/bad magic/);
    expect(() => CodeEmbedding.fromBuffer(bytes.subarray(0, bytes.length - 4))).toThrow(/header says/);
  });
});
