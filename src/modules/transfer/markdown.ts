/** What a Markdown file of one snippet shows. */
export interface MarkdownSnippet {
  id: string;
  name: string | null;
  language: string;
  tags: string[];
  websites: Array<{ url: string; name: string }>;
  created: string;
  updated: string;
  description: string | null;
  text: string;
}

/** Shortest id prefix a file name carries. */
const SHORT_ID = 8;
const MAX_SLUG = 60;

/** A file-name-safe form of a name: lower case ASCII letters, digits and single dashes, at most 60 characters; "snippet" when nothing is left. */
export function slugify(name: string | null): string {
  const slug = (name ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/g, '');
  return slug || 'snippet';
}

function commonPrefix(a: string, b: string | null): number {
  if (!b) return 0;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * The file name of the snippet `id` among snippets walked in id order (`previous` and `next`
 * are its neighbours in that order, null at the ends): its slugified name and the shortest
 * prefix of its id (at least 8 characters) that neither neighbour shares. Ids sharing a prefix are
 * neighbours in id order, so no two snippets of one export get the same name, whatever their names.
 */
export function fileName(id: string, name: string | null, previous: string | null, next: string | null): string {
  const shared = Math.max(commonPrefix(id, previous), commonPrefix(id, next));
  const length = Math.max(SHORT_ID, shared + 1);
  const short = length >= id.length ? id : id.slice(0, length);
  return `${slugify(name)}-${short.replace(/[^A-Za-z0-9-]/g, '_')}.md`;
}

/** A YAML scalar: a JSON string is a valid YAML double-quoted scalar. */
const scalar = (value: string): string => JSON.stringify(value);

/** A code fence longer than any run of backticks in the text. */
function fence(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** The Markdown file of a snippet: YAML front matter, then the text in a fenced code block labelled with its language. */
export function markdown(snippet: MarkdownSnippet): string {
  const lines = [
    '---',
    `id: ${scalar(snippet.id)}`,
    `name: ${scalar(snippet.name ?? '')}`,
    `language: ${scalar(snippet.language)}`,
  ];
  lines.push(snippet.tags.length ? 'tags:' : 'tags: []', ...snippet.tags.map((t) => `  - ${scalar(t)}`));
  lines.push(
    snippet.websites.length ? 'websites:' : 'websites: []',
    ...snippet.websites.map((w) => `  - url: ${scalar(w.url)}\n    name: ${scalar(w.name)}`),
  );
  lines.push(`created: ${scalar(snippet.created)}`, `updated: ${scalar(snippet.updated)}`);
  lines.push(`description: ${snippet.description === null ? 'null' : scalar(snippet.description)}`, '---', '');
  const marks = fence(snippet.text);
  const info = /^[\w+#.-]+$/.test(snippet.language) && snippet.language !== 'UNKNOWN' ? snippet.language : '';
  lines.push(`${marks}${info}`, snippet.text.endsWith('\n') ? snippet.text.slice(0, -1) : snippet.text, marks, '');
  return lines.join('\n');
}
