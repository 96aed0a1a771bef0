import { ExtractiveTextEngine } from '../../src/modules/intelligence/text/extractive-text-engine';

/** What test/intelligence/text.spec.ts leaves out: repeated sentences, budgets, titles without nouns, long outlines. */
describe('ExtractiveTextEngine edges', () => {
  const engine = new ExtractiveTextEngine();

  it('counts a sentence said twice once, and gives nothing for a budget of no sentence', async () => {
    expect(
      await engine.summarize(
        ['The cache is fast. The cache is fast. Reads hit the cache first. Writes go to disk.'],
        3,
      ),
    ).toBe('The cache is fast. Reads hit the cache first. Writes go to disk.');
    expect(await engine.summarize(['The cache is fast.'], 0)).toBe('');
  });

  it('titles a text without any noun by its first words, and prose-free text not at all', async () => {
    expect(await engine.title(['run quickly and then stop!'])).toBe('Run quickly and then stop');
    expect(await engine.title(['```\nonly code\n```'])).toBe('');
  });

  it('describes code without definitions as statements, in the singular for one line', async () => {
    expect(await engine.describeAsset({ name: 'one', text: 'x = 1', generic: 'CODE', specific: 'py' })).toBe(
      '"one" is a Python code snippet of 1 line.\n\nIt defines no named functions or types; it is a sequence of statements.',
    );
  });

  it('lists at most 12 definitions and counts the rest', async () => {
    const code = Array.from({ length: 15 }, (_, i) => `def f${i}():\n    pass\n`).join('\n');
    const text = await engine.describeAsset({ name: null, text: code, generic: 'CODE', specific: 'py' });
    expect(text).toContain('function `f11` and 3 more.');
    expect(text).not.toContain('`f12`');
  });

  it('names the format of a prose note unless it is plain text', async () => {
    expect(
      await engine.describeAsset({
        name: 'readme',
        text: 'Install the package. Run the server.',
        generic: 'TEXT',
        specific: 'md',
      }),
    ).toBe(
      '"readme" is a text note in Markdown of 6 words.\n\nIts central points: Install the package. Run the server.\n\nKey phrases: package, server.',
    );
    expect(
      await engine.describeAsset({ name: 'n', text: 'Install the package.', generic: 'TEXT', specific: 'txt' }),
    ).toMatch(/^"n" is a text note of 3 words\./);
  });
});
