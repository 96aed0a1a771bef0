import {
  PROMPT_CHARS,
  parseSnippetMetadata,
  snippetMetadataPrompt,
} from '../../src/modules/intelligence/text/snippet-metadata';

/** The prompt a model enrichment sends and the checks its answer passes before it is applied. */
describe('snippet metadata: the model enrichment prompt and answer', () => {
  const all = { name: true, description: true, tags: true };

  it('asks for strict JSON of the parts asked for, naming the language, quoting the text', () => {
    const [system, user] = snippetMetadataPrompt('SELECT 1;', 'SQL', all);
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/JSON object only/);
    expect(user.content).toMatch(/^Give this SQL snippet/);
    expect(user.content).toContain('<<<\nSELECT 1;\n>>>');
    for (const field of ['"name"', '"description"', '"tags"']) expect(user.content).toContain(`- ${field}`);
    const tagsOnly = snippetMetadataPrompt('SELECT 1;', undefined, { name: false, description: false, tags: true })[1]
      .content;
    expect(tagsOnly).toMatch(/^Give this snippet/);
    expect(tagsOnly).not.toContain('- "name"');
    expect(tagsOnly).not.toContain('- "description"');
  });

  it('cuts a long text to a bounded size and says so', () => {
    const long = 'x'.repeat(PROMPT_CHARS * 3);
    const user = snippetMetadataPrompt(long, 'Python', all)[1].content;
    expect(user.length).toBeLessThan(PROMPT_CHARS + 1_000);
    expect(user).toContain('[... cut]');
  });

  it('reads a plain answer, a fenced one and one wrapped in prose', () => {
    const object = { name: 'Parse dates', description: 'Parses ISO dates.', tags: ['dates'] };
    expect(parseSnippetMetadata(JSON.stringify(object))).toEqual(object);
    expect(parseSnippetMetadata('```json\n' + JSON.stringify(object) + '\n```')).toEqual(object);
    expect(parseSnippetMetadata('Here you go: ' + JSON.stringify(object) + ' Enjoy!')).toEqual(object);
  });

  it('strips quotes and markdown, keeps the first sentence, lowercases, dedupes and bounds the tags', () => {
    expect(
      parseSnippetMetadata(
        JSON.stringify({
          name: '"**Debounce   helper**"',
          description: 'Delays calls until input settles. Uses setTimeout under the hood.',
          tags: ['JavaScript', 'javascript', '#Timing', 'UI', 'events', 'perf', 'extra', ''],
        }),
      ),
    ).toEqual({
      name: 'Debounce helper',
      description: 'Delays calls until input settles.',
      tags: ['javascript', 'timing', 'ui', 'events', 'perf'],
    });
    expect(parseSnippetMetadata(JSON.stringify({ description: 'Adds two numbers', tags: 'math, arithmetic' }))).toEqual(
      {
        description: 'Adds two numbers.',
        tags: ['math', 'arithmetic'],
      },
    );
  });

  it('drops what fails its checks, and answers null when nothing passes', () => {
    expect(
      parseSnippetMetadata(JSON.stringify({ name: 'n'.repeat(101), description: 7, tags: [{ text: 'x' }, 'ok'] })),
    ).toEqual({ tags: ['ok'] });
    expect(parseSnippetMetadata(JSON.stringify({ name: '', description: '   ', tags: [] }))).toBeNull();
    expect(parseSnippetMetadata('I cannot help with that.')).toBeNull();
    expect(parseSnippetMetadata('')).toBeNull();
    expect(parseSnippetMetadata('["a", "b"]')).toBeNull();
    expect(parseSnippetMetadata('{"name": "unterminated')).toBeNull();
  });
});
