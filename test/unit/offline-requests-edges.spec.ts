import { commitSubject, offlineRequest } from '../../src/modules/intelligence/text/offline-requests';

/** Cases test/unit/offline-requests.spec.ts does not cover: precedence, word boundaries, plain file names, truncation. */
describe('offline request kinds: edges', () => {
  it.each([
    ['write a commit message for this', 'commit-message'],
    ['ok, can you please generate tests', 'generate'],
    ['kindly translate to Go', 'generate'],
    ['I need you to summarize the thread', 'generate'],
    ['Help me debug this', 'generate'],
    ['Respond only with yes or no: is it async?', 'generate'],
    ['hey, how does retry work?', 'question'],
    ['explainer of the parser?', 'question'],
    ['documentation for retry?', 'question'],
  ])('%s -> %s', (query, kind) => {
    expect(offlineRequest(query).kind).toBe(kind);
  });
});

describe('commit subjects: edges', () => {
  it('reads file names given without bold markers', () => {
    expect(
      commitSubject('File modified: src/a.ts', [{ path: '/r/src/a.ts', text: '+export function alpha() {}\n' }]),
    ).toBe('feat: add alpha in a.ts');
  });

  it('names a created file that defines nothing', () => {
    expect(commitSubject('File created: **src/new.ts**', [{ path: '/r/src/new.ts', text: '+const x = 1\n' }])).toBe(
      'feat: add new.ts',
    );
  });

  it('cuts a subject that cannot fit in 72 characters with an ellipsis', () => {
    const subject = commitSubject('', [
      {
        path: '/r/a.ts',
        text: '+export function aVeryLongFunctionNameThatGoesOnAndOnAndOnForeverAndEverAndEver() {}\n',
      },
    ])!;
    expect(subject).toHaveLength(72);
    expect(subject).toMatch(/^feat: add aVeryLong\w+…$/);
  });

  it('does not read diff headers (+++ / ---) as changed lines', () => {
    expect(commitSubject('', [{ text: '+++ b/x.ts\n--- a/x.ts\n' }])).toBeNull();
  });
});
