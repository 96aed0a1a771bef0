/** What the language rules look at: a text's code without its comments and strings, and how many markers it shows. */

/**
 * The text without its comments (C-family and CSS syntax: `/* ... *\/`, the `*` lines of a
 * block comment cut by the window, and with `lineComments`, `// ...` not preceded by `:` as in
 * URLs): words in comments (`virtual`, `@include`, `{string}` in JSDoc) are not syntax.
 * Linear in the length of the text.
 */
export function withoutComments(text: string, lineComments: boolean): string {
  let out = '';
  let i = 0;
  for (;;) {
    const open = text.indexOf('/*', i);
    if (open < 0) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, open) + ' ';
    const close = text.indexOf('*/', open + 2);
    if (close < 0) break;
    i = close + 2;
  }
  out = out.replace(/^[ \t]*\*(?:[ \t/]|$)[^\n]*$/gm, '');
  return lineComments ? out.replace(/(^|[^:])\/\/[^\n]*/gm, '$1') : out;
}

/** The text with its string literals emptied (`'Done!'` -> `''`; quoted ones on one line, template literals on any). */
export function withoutStrings(text: string): string {
  return text.replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
}

/** The text's code alone: comments (line comments too) left out and strings emptied. */
export function codeOnly(text: string): string {
  return withoutStrings(withoutComments(text, true));
}

export function count(markers: readonly RegExp[], text: string): number {
  return markers.reduce((n, re) => n + (re.test(text) ? 1 : 0), 0);
}

/** A Markdown code fence's line, opening or closing (```` ``` ````, ```` ~~~ ````, ```` ```toml ````, up to 3 spaces in). */
export const FENCE_LINE = /^ {0,3}(?:```|~~~)/m;
