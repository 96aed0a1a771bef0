import { CANNOT_GENERATE, commitSubject, offlineRequest } from '../../src/modules/intelligence/text/offline-requests';

/** The Pieces CLI's commit prompt (autocommit.py get_commit_message), with its change summary. */
const prompt = (summary: string) =>
  'Act as a git expert developer to generate a concise git commit message **using best git commit message practices** to follow these specifications:\n' +
  '                `Format of the message: "(task done): small description"`,\n' +
  `                \`Here are the changes summary:\`\n${summary}\`\n` +
  '                The actual code changes provide to you in the seeds,';

describe('what a request asks the offline engine for', () => {
  it.each([
    ['how do I compute fibonacci numbers?', 'question'],
    ['what does fib do?', 'question'],
    ['where is the retry logic?', 'question'],
    ['Write a debounce function in TypeScript', 'generate'],
    ['please rewrite this in Go', 'generate'],
    ['Can you explain what this class does', 'generate'],
    ['refactor the parser to use a visitor', 'generate'],
    [prompt('File modified: **a.py**'), 'commit-message'],
    ["Please provide the issue number that is related to the changes, If nothing related write 'None'.", 'generate'],
    ['Which issue is related? `Output format WITHOUT ADDING ANYTHING ELSE: "Issue: N"`', 'generate'],
    ['show me the retry helper', 'question'],
  ])('%s -> %s', (query, kind) => {
    expect(offlineRequest(query).kind).toBe(kind);
  });

  it('answers a request for new text in one sentence that names how to configure a model', () => {
    expect(CANNOT_GENERATE.split(/(?<=[.;])\s/).filter((s) => s.endsWith('.'))).toHaveLength(1);
    expect(CANNOT_GENERATE).toMatch(/TROVE_OLLAMA_URL, TROVE_OPENAI_URL or TROVE_GGUF_PATHS/);
  });
});

describe('a commit subject from the files and symbols a diff touches', () => {
  it('names a new function and the file that defines it', () => {
    const subject = commitSubject(prompt('File created: **README.md**\nFile modified: **calc.py**'), [
      { path: '/repo/README.md', text: '+# Calc\n' },
      { path: '/repo/calc.py', text: '+def multiply(a, b):\n+    """Multiply two numbers."""\n+    return a * b\n' },
    ]);
    expect(subject).toBe('feat: add multiply in calc.py');
  });

  it.each([
    [
      'docs only',
      'File modified: **README.md**\nFile created: **docs/guide.md**',
      [{ text: '+hello\n-bye\n' }],
      'docs: update README.md and guide.md',
    ],
    [
      'tests only',
      'File created: **test/e2e/search.spec.ts**',
      [{ text: "+describe('x', () => {})\n" }],
      'test: add search.spec.ts',
    ],
    [
      'CI only',
      'File modified: **.github/workflows/ci.yml**',
      [{ text: '+  run: npm test\n-  run: npm t\n' }],
      'ci: update ci.yml',
    ],
    ['a manifest only', 'File modified: **package.json**', [{ text: '+ "x": "1"\n' }], 'build: update package.json'],
    [
      'a deleted file',
      'File deleted: **src/old.ts**',
      [{ path: '/r/src/old.ts', text: '-export function old() {}\n' }],
      'chore: remove old.ts',
    ],
    [
      'a changed signature in two files',
      'File modified: **src/a.ts**\nFile modified: **src/b.ts**',
      [
        { path: '/r/src/a.ts', text: '+export function alpha(x: number) {}\n-export function alpha() {}\n' },
        { path: '/r/src/b.ts', text: '+const y = 1\n' },
      ],
      'chore: update alpha in a.ts',
    ],
    [
      'a removed function',
      'File modified: **src/a.py**',
      [{ path: '/r/src/a.py', text: '-def legacy():\n-    pass\n' }],
      'chore: remove legacy in a.py',
    ],
  ])('%s', (_what, summary, diffs, expected) => {
    expect(commitSubject(prompt(summary), diffs)).toBe(expected);
  });

  it('stays within 72 characters, naming fewer symbols when they do not fit', () => {
    const names = [
      'parseConfiguration',
      'validateConfiguration',
      'normaliseConfiguration',
      'loadConfigurationFromEnvironment',
      'mergeDefaults',
    ];
    const subject = commitSubject(prompt('File modified: **src/config/load.ts**'), [
      { path: '/r/src/config/load.ts', text: names.map((n) => `+export function ${n}() {}`).join('\n') },
    ]);
    expect(subject!.length).toBeLessThanOrEqual(72);
    expect(subject).toBe('feat: add parseConfiguration and 4 more in load.ts');
  });

  it('gives nothing rather than inventing when neither files nor definitions can be read', () => {
    expect(commitSubject('write me a commit message', [{ text: 'just some text' }])).toBeNull();
  });
});
