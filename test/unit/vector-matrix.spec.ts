import { VectorMatrix } from '../../src/modules/search/model-vector-index';

/** The in-memory matrix of the model vector index: brute-force cosine over unit vectors, kept in step by set and remove. */
describe('VectorMatrix', () => {
  const unit = (...xs: number[]) => {
    const norm = Math.hypot(...xs);
    return Float32Array.from(xs.map((x) => x / norm));
  };

  it('returns the rows closest to the query first, above the least similarity, at most the limit', () => {
    const m = new VectorMatrix();
    m.set('a', unit(1, 0, 0));
    m.set('b', unit(1, 1, 0));
    m.set('c', unit(0, 0, 1));
    const found = m.nearest(unit(1, 0.2, 0), 10, 0.25);
    expect(found.map((f) => f.id)).toEqual(['a', 'b']);
    expect(found[0].score).toBeCloseTo(1 / Math.hypot(1, 0.2), 5);
    expect(m.nearest(unit(1, 0.2, 0), 1, 0).map((f) => f.id)).toEqual(['a']);
  });

  it('replaces a row in place, removes by moving the last row into the gap, and ignores another dimension', () => {
    const m = new VectorMatrix();
    for (let i = 0; i < 200; i++) m.set(`r${i}`, unit(1, i / 100, 0));
    expect(m.size).toBe(200);
    m.set('r0', unit(0, 0, 1));
    expect(m.nearest(unit(0, 0, 1), 1, 0.9).map((f) => f.id)).toEqual(['r0']);
    m.remove('r0');
    m.remove('r0');
    m.remove('r50');
    expect(m.size).toBe(198);
    expect(m.has('r199')).toBe(true);
    expect(m.nearest(unit(1, 1.99, 0), 1, 0).map((f) => f.id)).toEqual(['r199']);
    expect(m.nearest(unit(0, 0, 1), 5, 0.5)).toEqual([]);
    m.set('odd', unit(1, 0));
    expect(m.has('odd')).toBe(false);
    expect(m.nearest(unit(1, 0), 5, 0)).toEqual([]);
  });
});
