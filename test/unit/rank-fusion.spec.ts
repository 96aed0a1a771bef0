import { fuseRanks, fusedScores } from '../../src/modules/intelligence/text/rank-fusion';

describe('reciprocal rank fusion', () => {
  it('puts first what both rankings place high, and scores first-in-every-list as 1', () => {
    const fused = fusedScores([
      ['a', 'b', 'c'],
      ['b', 'a', 'd'],
    ]);
    expect(fused.map(([id]) => id)).toEqual(['a', 'b', 'c', 'd']); // a and b tie: by id
    expect(fused[0][1]).toBeCloseTo((1 / 61 + 1 / 62) / (2 / 61), 10);
    expect(fusedScores([['x'], ['x']])[0]).toEqual(['x', 1]);
    expect(fused[2][1]).toBeLessThan(fused[1][1]);
  });

  it('keeps ids found by one list only, after those found by both, and cuts to the limit', () => {
    expect(
      fuseRanks(
        [
          ['a', 'b'],
          ['c', 'b'],
        ],
        10,
      ),
    ).toEqual(['b', 'a', 'c']);
    expect(
      fuseRanks(
        [
          ['a', 'b'],
          ['c', 'b'],
        ],
        1,
      ),
    ).toEqual(['b']);
    expect(fuseRanks([], 5)).toEqual([]);
  });

  it('weighs each list by its weight', () => {
    // b, second in the list of weight 2 (2 / 62), comes before a, first in the list of weight 1 (1 / 61)
    expect(fuseRanks([['a'], ['x', 'b']], 3, [1, 2])).toEqual(['x', 'b', 'a']);
    expect(fusedScores([['a'], ['a']], [1, 3])[0]).toEqual(['a', 1]);
    expect(
      fuseRanks(
        [
          ['a', 'b'],
          ['b', 'a'],
        ],
        2,
        [1, 1],
      ),
    ).toEqual(
      fuseRanks(
        [
          ['a', 'b'],
          ['b', 'a'],
        ],
        2,
      ),
    );
  });
});
