import { DenseIndex, Sketches, cosine, quantise, sketchOf } from '../../src/modules/search/dense-index';
import { codeEmbedding } from '../../src/modules/intelligence/text/code-embedding';
// A seeded generator (the benchmarks' mulberry32), so failures replay.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain-JS module of the benchmarks
const { mulberry32: rng } = require('../../bench/lib/corpus') as { mulberry32: (seed: number) => () => number };

function unit(rand: () => number, dim = 256): Float32Array {
  const v = new Float32Array(dim).map(() => rand() - 0.5);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

function hamming(a: Uint32Array, b: Uint32Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) for (let x = a[i] ^ b[i]; x; x &= x - 1) d++;
  return d;
}

describe('dense index: vectors and sketches', () => {
  it('stores a unit vector as int8 whose cosine with the original is ~1, and ~0 with an orthogonal one', () => {
    const rand = rng(1);
    const v = unit(rand);
    const stored = quantise(v);
    expect(stored).toHaveLength(256);
    expect(Math.max(...new Int8Array(stored.buffer, stored.byteOffset, stored.length).map(Math.abs))).toBe(127);
    expect(cosine(v, stored)).toBeGreaterThan(0.999);
    const other = new Float32Array(256);
    other[0] = v[1];
    other[1] = -v[0];
    const norm = Math.hypot(other[0], other[1]);
    expect(Math.abs(cosine(v, quantise(other.map((x) => x / norm))))).toBeLessThan(0.01);
    expect(cosine(v, Buffer.alloc(128))).toBe(0); // another size: never a match
  });

  it('keeps one sign bit per dimension', () => {
    const s = sketchOf([1, -1, 0, 2, ...new Array(60).fill(-1), 3]);
    expect(Array.from(s)).toEqual([0b1001, 0, 1]); // 65 dimensions: three words, the 65th bit first of the third
  });

  it.each([256, 96])(
    'finds the nearest %i-bit sketches as a full Hamming ranking would, by row number, past its first capacity',
    (dim) => {
      const rand = rng(7);
      const sketches = new Sketches(dim, 3, 0);
      const all = new Map<number, Uint32Array>();
      // Row numbers as the table hands them out: increasing, with gaps (rows removed, sequences skipping).
      for (let i = 0, doc = 1; i < 3000; i++, doc += 1 + Math.floor(rand() * 3)) {
        const s = sketchOf(unit(rand, dim));
        sketches.set(doc, s);
        all.set(doc, s);
      }
      expect(sketches.size).toBe(3000);
      // A rewritten vector keeps its row: its sketch is replaced, not added.
      const [first] = all.keys();
      const fresh = sketchOf(unit(rand, dim));
      sketches.set(first, fresh);
      all.set(first, fresh);
      expect(sketches.size).toBe(3000);

      for (let q = 0; q < 20; q++) {
        const asked = sketchOf(unit(rand, dim));
        const got = sketches.nearest(asked, 50);
        expect(got).toHaveLength(50);
        expect(new Set(got).size).toBe(50);
        expect(got.every((doc) => all.has(doc))).toBe(true);
        const distances = got.map((doc) => hamming(all.get(doc)!, asked));
        expect(distances).toEqual([...distances].sort((a, b) => a - b));
        const worst = distances[distances.length - 1];
        const closer = [...all.values()].filter((s) => hamming(s, asked) < worst).length;
        expect(closer).toBeLessThanOrEqual(50); // nothing nearer was left out
      }
      expect(sketches.nearest(fresh, 1)).toEqual([first]);
      // A sketch of another size (another model) is never taken.
      sketches.set(999_999, new Uint32Array(1));
      expect(sketches.size).toBe(3000);
    },
  );

  it('gives code a vector and pseudo assets none', () => {
    expect(codeEmbedding()).toBeTruthy();
    const doc = {
      name: 'hash password',
      content: 'def hash_password(p):\n    return bcrypt.hashpw(p, bcrypt.gensalt())\n',
    };
    expect(DenseIndex.vectorOf({ ...doc, pseudo: false })).toHaveLength(256);
    expect(DenseIndex.vectorOf({ ...doc, pseudo: true })).toBeNull();
    expect(DenseIndex.vectorOf({ name: '', content: '', pseudo: false })).toBeNull();
  });
});
