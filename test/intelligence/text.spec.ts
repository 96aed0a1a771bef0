import { outlineCode } from '../../src/modules/intelligence/text/code-outline';
import { ExtractiveTextEngine } from '../../src/modules/intelligence/text/extractive-text-engine';
import { languageName } from '../../src/modules/intelligence/text/language-names';
import { textRank } from '../../src/modules/intelligence/text/text-rank';

const engine = new ExtractiveTextEngine();

const KEY = 'Rotate the API keys of the billing service every ninety days and store the billing keys in the vault.';
const THREAD = [
  'Why did the billing service fail last night?',
  `The billing service failed because its API keys expired. ${KEY}`,
  'Is the vault backed up?',
  'The weather in Lisbon was sunny.',
  'Yes, and the billing service reads its API keys from the vault at start-up.',
];

describe('ExtractiveTextEngine (offline text generator)', () => {
  it('summarizes with the most central sentence and leaves off-topic ones out', async () => {
    const summary = await engine.summarize(THREAD, 2);
    expect(summary).toContain(KEY);
    expect(summary).not.toContain('Lisbon');
    expect(await engine.summarize(THREAD, 2)).toBe(summary);
  });

  it('keeps reading order, respects the sentence budget and ignores code blocks', async () => {
    const one = await engine.summarize(THREAD, 1);
    expect(one.split(/(?<=[.?!])\s+/)).toHaveLength(1);
    const withCode = await engine.summarize(
      ['Use the cache layer for reads.\n```js\nconst x = cache.get(k);\n```\nThe cache layer keeps reads fast.'],
      5,
    );
    expect(withCode).toBe('Use the cache layer for reads. The cache layer keeps reads fast.');
    expect(await engine.summarize([], 3)).toBe('');
    expect(await engine.summarize(['```\ncode only\n```'], 3)).toBe('');
  });

  it('ranks key phrases (noun chunks) by how much the text is about them', async () => {
    const phrases = await engine.keyPhrases(THREAD.join('\n'), 3);
    expect(phrases[0]).toBe('billing service');
    expect(phrases).toContain('API keys');
    expect(await engine.keyPhrases(THREAD.join('\n'), 3)).toEqual(phrases);
  });

  it('titles a thread by its topic', async () => {
    const title = await engine.title(THREAD);
    expect(title.toLowerCase()).toContain('billing service');
    expect(title.length).toBeLessThanOrEqual(80);
    expect(title.charAt(0)).toBe(title.charAt(0).toUpperCase());
    expect(await engine.title(['   '])).toBe('');
  });

  it('describes code assets: language, definitions, imports, comments', async () => {
    const go =
      'package main\n\nimport (\n  "fmt"\n  "net/http"\n)\n\n// Server answers health checks.\ntype Server struct{}\n\nfunc (s *Server) Health(w http.ResponseWriter, r *http.Request) {\n  fmt.Fprintln(w, "ok")\n}\n\nfunc main() {}\n';
    const text = await engine.describeAsset({ name: 'health server', text: go, generic: 'CODE', specific: 'go' });
    expect(text).toMatch(/^"health server" is a Go code snippet of \d+ lines\./);
    expect(text).toContain('struct `Server`');
    expect(text).toContain('function `Health`');
    expect(text).toContain('function `main`');
    expect(text).toContain('`fmt`, `net/http`');
    expect(text).toContain('Server answers health checks.');
  });

  it('describes prose assets by their central sentences', async () => {
    const text = await engine.describeAsset({ name: null, text: THREAD.join(' '), generic: 'TEXT', specific: 'txt' });
    expect(text).toMatch(/^This asset is a text note of \d+ words\./);
    expect(text).toContain(KEY);
    expect(text).toMatch(/Key phrases: billing service/);
  });
});

describe('code outline', () => {
  it.each([
    [
      'ts',
      'export interface User { id: string }\nexport async function loadUser(id: string) {}\nexport const save = async (u: User) => {};\nexport class Repo {}\nimport { x } from "./x";',
      ['interface User', 'function loadUser', 'function save', 'class Repo'],
      ['./x'],
    ],
    [
      'rs',
      'use std::io;\npub struct Point { x: i32 }\npub trait Shape {}\nfn area() -> f64 { 0.0 }',
      ['struct Point', 'trait Shape', 'function area'],
      ['std::io'],
    ],
    [
      'java',
      'import java.util.List;\npublic class Greeter {\n  public String greet(String name) {\n    if (name == null) { return ""; }\n    return name;\n  }\n}',
      ['class Greeter', 'method greet'],
      ['java.util.List'],
    ],
    [
      'sql',
      'CREATE TABLE IF NOT EXISTS invoices (id int);\ncreate index invoices_by_id on invoices(id);',
      ['table invoices', 'index invoices_by_id'],
      [],
    ],
    ['c', '#include <stdio.h>\n\nint add(int a, int b) {\n  return a + b;\n}', ['function add'], ['stdio.h']],
    [
      'rb',
      'class Runner\n  def self.run!(reset: false)\n    new.call\n  end\nend',
      ['class Runner', 'function run!'],
      [],
    ],
    ['r', 'add <- function(x, y) {\n  x + y\n}', ['function add'], []],
    ['hs', 'sumAll :: [Int] -> Int\nsumAll = foldr (+) 0', ['function sumAll'], []],
    [
      'js methods',
      'getNumberInput(start, end) {\n  return this.input.slice(start, end);\n}\nasync load(id) {\n}\nMime.prototype.getType = function (path) {\n};\nexports.parse = (text) => text;\nconst noop = function () {};\nhandlers = {\n  click: function (e) {}\n};',
      ['method getNumberInput', 'method load', 'function getType', 'function parse', 'function noop', 'method click'],
      [],
    ],
  ])('%s', (_lang, code, definitions, imports) => {
    const outline = outlineCode(code);
    expect(outline.definitions.map((d) => `${d.kind} ${d.name}`)).toEqual(definitions);
    expect(outline.imports).toEqual(imports);
  });

  it('does not read prose or control flow as definitions', () => {
    expect(
      outlineCode('if (ready) {\n  run();\n}\nwhile (x) {\n}\nsynchronized (lock) {\n}\ncatch (e) {\n}').definitions,
    ).toEqual([]);
    expect(outlineCode('#!/bin/sh\n#include <x.h>\n# real comment here').comments).toEqual(['real comment here']);
  });

  it.each([
    [
      'a comment right above the definition',
      'import os\n\n# Reads the settings file.\n@cache\ndef read_settings(path):\n    return open(path).read()',
      'Reads the settings file.',
    ],
    [
      'a docstring under a signature over two lines',
      'def area(width,\n         height):\n    """Return the area."""\n    return width * height',
      'Return the area.',
    ],
    [
      "Perl's comment opening the body",
      'sub bsin {\n    # calculate sin(x) to N digits\n    my ($x) = @_;\n}',
      'calculate sin(x) to N digits',
    ],
    ['a JSDoc block above a method', '/**\n * Returns the user.\n */\nasync getUser(id) {\n}', 'Returns the user.'],
    [
      "Perl's POD above a sub",
      '=head2 trim\n\nRemoves leading and trailing whitespace.\n\n=cut\n\nsub trim {\n    my ($s) = @_;\n}',
      'Removes leading and trailing whitespace.',
    ],
    [
      "Haddock's -- | above a signature",
      '-- | Sums a list of numbers.\nsumAll :: [Int] -> Int\nsumAll = foldr (+) 0',
      'Sums a list of numbers.',
    ],
    [
      "roxygen's #' above an R function",
      "#' Add two numbers.\nadd <- function(x, y) {\n  x + y\n}",
      'Add two numbers.',
    ],
    [
      "a script's header comment",
      '#!/bin/sh\n# Back up the database every night.\npg_dump app > app.sql',
      'Back up the database every night.',
    ],
    [
      'a header comment after a lint directive and a licence',
      '// eslint-disable-next-line no-console\n// Copyright (c) 2024 Example Ltd.\n// Prints a greeting.\nconsole.log("hi");',
      'Prints a greeting.',
    ],
  ])('the lead comment: %s', (_case, code, lead) => {
    expect(outlineCode(code).leadComment).toBe(lead);
  });

  it.each([
    [
      'a comment inside the body',
      'def get_items(self, block):\n    items = []\n    for line in block:\n        # This is a new list item\n        items.append(line)\n    return items',
    ],
    ['a comment after the code', 'x = compute()\nprint(x)  \n# TODO: cache this'],
    ['a trailing comment on a line of code', 'int total = 0; /* running total */\nreturn total;'],
    ['a lint directive', 'def wcswidth(pwcs, n=None):\n    # pylint: disable=C0103\n    return 0'],
  ])('no lead comment: %s', (_case, code) => {
    expect(outlineCode(code).leadComment).toBeUndefined();
  });
});

describe('textRank and language names', () => {
  it('scores the sentence sharing the most vocabulary highest, and is stable', () => {
    const scores = textRank([['a', 'b'], ['a', 'b', 'c'], ['c', 'd'], ['z']]);
    expect(scores[1]).toBe(Math.max(...scores));
    expect(textRank([['a', 'b'], ['a', 'b', 'c'], ['c', 'd'], ['z']])).toEqual(scores);
    expect(scores.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 6);
  });

  it('spells out languages', () => {
    expect(languageName('py')).toBe('Python');
    expect(languageName('cs')).toBe('C#');
    expect(languageName('hljs-elixir')).toBe('Elixir');
  });
});
