import { parseDocument } from 'htmlparser2';
import MarkdownIt from 'markdown-it';
import postcss from 'postcss';
import { SnippetKind, kind, listOf, shortList, shown } from './kind';

/** An element as htmlparser2's DOM gives it (the parts read here). */
interface Element {
  type: string;
  name: string;
  attribs: Record<string, string | undefined>;
  children: Array<Element | { type: string; data?: string }>;
}

/**
 * Web snippets: CSS by its selectors (postcss), HTML by its form or its component (htmlparser2),
 * Markdown by its heading (markdown-it's tokens), a JavaScript `fetch` by its method and URL.
 */

export function understandCss(text: string): SnippetKind | undefined {
  let root: postcss.Root;
  try {
    // (the first rules name a stylesheet; a whole framework's would cost a save too much)
    const head = text.slice(0, 12_000);
    root = postcss.parse(text.length > head.length ? head.slice(0, head.lastIndexOf('}') + 1) : head);
  } catch {
    return undefined;
  }
  const selectors: string[] = [];
  const properties: string[] = [];
  const media: string[] = [];
  root.walkRules((rule) => {
    if (rule.parent?.type === 'atrule' && /keyframes$/i.test((rule.parent as postcss.AtRule).name)) return;
    selectors.push(...rule.selectors.map((s) => s.replace(/\s+/g, ' ')));
  });
  root.walkDecls((decl) => {
    if (!decl.prop.startsWith('--') || properties.length < 8) properties.push(decl.prop);
  });
  root.walkAtRules((rule) => {
    if (rule.name === 'media') media.push(rule.params);
  });
  if (!selectors.length) return undefined;
  const props = [...new Set(properties)];
  return kind(
    `CSS ${shortList(selectors, 3)}`,
    `CSS ${selectors.length === 1 ? 'rule' : 'rules'} for ${listOf(selectors, 3)}${props.length ? ` setting ${listOf(props, 3)}` : ''}${media.length ? ` (media ${listOf(media, 2)})` : ''}`,
    [
      'css',
      ...selectors.slice(0, 3).map(
        (s) =>
          s
            .replace(/[^\w-]+/g, ' ')
            .trim()
            .split(' ')[0],
      ),
    ],
  );
}

function elements(node: { children?: unknown[] }, into: Element[] = []): Element[] {
  for (const child of (node.children ?? []) as Element[]) {
    if (child.type === 'tag' || child.type === 'script' || child.type === 'style') {
      into.push(child);
      elements(child, into);
    }
  }
  return into;
}

function textOf(node: Element): string {
  let out = '';
  for (const child of node.children) {
    if (child.type === 'text' && 'data' in child) out += child.data ?? '';
    else if (child.type === 'tag') out += textOf(child as Element);
  }
  return out.replace(/\s+/g, ' ').trim();
}

export function understandHtml(text: string): SnippetKind | undefined {
  const all = elements(parseDocument(text.slice(0, 100_000)) as unknown as { children: unknown[] });
  if (!all.length) return undefined;
  const form = all.find((e) => e.name === 'form');
  if (form) {
    const inside = elements(form);
    const fields = inside
      .filter(
        (e) =>
          ['input', 'select', 'textarea'].includes(e.name) &&
          e.attribs.type !== 'hidden' &&
          e.attribs.type !== 'submit',
      )
      .map((e) => e.attribs.name ?? e.attribs.id ?? e.attribs.type ?? e.name);
    const id = form.attribs.id ?? form.attribs.name ?? form.attribs.class?.split(/\s+/)[0];
    const action = form.attribs.action;
    const method = (form.attribs.method ?? 'get').toUpperCase();
    return kind(
      `HTML form ${id ?? ''}${fields.length ? ` (${shortList(fields, 3)})` : ''}`.replace(/\s+/g, ' '),
      `HTML form${id ? ` "${id}"` : ''}${fields.length ? ` with fields ${listOf(fields, 4)}` : ''}${action ? `, sent by ${method} to ${action}` : ''}`,
      ['html', 'form', ...fields.slice(0, 2)],
    );
  }
  const title = all.find((e) => e.name === 'title');
  const heading = all.find((e) => /^h[1-3]$/.test(e.name));
  const body = all.filter(
    (e) => !['html', 'head', 'body', 'meta', 'link', 'title', 'script', 'style'].includes(e.name),
  );
  const root = body[0];
  const label = (e: Element) =>
    `<${e.name}${e.attribs.id ? `#${e.attribs.id}` : e.attribs.class ? `.${e.attribs.class.trim().split(/\s+/)[0]}` : ''}>`;
  const headline = (title && textOf(title)) || (heading && textOf(heading)) || undefined;
  const custom = body.filter((e) => e.name.includes('-')).map((e) => e.name);
  const name = custom.length
    ? `HTML ${shortList(custom, 2)}`
    : headline
      ? `${shown(headline, 60)} (HTML)`
      : root
        ? `HTML ${label(root)}`
        : undefined;
  if (!name) return undefined;
  const tags = [...new Set(body.map((e) => e.name))];
  return kind(
    name,
    `HTML ${title ? 'page' : 'fragment'}${headline ? ` "${shown(headline, 60)}"` : ''}${root ? ` with ${listOf([...new Set(body.slice(0, 12).map(label))], 3)}` : ''}`,
    [
      'html',
      ...custom.slice(0, 2),
      ...tags.filter((t) => ['nav', 'table', 'form', 'button', 'svg', 'canvas', 'video'].includes(t)).slice(0, 2),
    ],
  );
}

const markdown = new MarkdownIt();

export function understandMarkdown(text: string): SnippetKind | undefined {
  let tokens: ReturnType<typeof markdown.parse>;
  try {
    tokens = markdown.parse(text.slice(0, 100_000), {});
  } catch {
    return undefined;
  }
  // a heading: its open token, then its inline token (whose children are its text and code spans)
  const headings = tokens.flatMap((t, i) => {
    if (t.type !== 'heading_open') return [];
    const words = (tokens[i + 1]?.children ?? [])
      .filter((c) => c.type === 'text' || c.type === 'code_inline')
      .map((c) => c.content);
    const heading = words.join('').replace(/\s+/g, ' ').trim();
    return heading ? [{ depth: Number(t.tag.slice(1)), heading }] : [];
  });
  if (!headings.length) return undefined;
  const top = Math.min(...headings.map((h) => h.depth));
  const title = headings.find((h) => h.depth === top)!;
  const heading = title.heading;
  // (a section whose heading is a sentence or more, "Why? Try it.", is left out: the description is one sentence)
  const sections = headings
    .filter((h) => h !== title && h.depth <= top + 1)
    .map((h) => h.heading.replace(/[.:!?]+$/, ''))
    .filter((h) => !/[.!?]\s/.test(h));
  const code = tokens
    .filter((t) => t.type === 'fence')
    .map((t) => t.info.trim().split(/\s+/)[0])
    .filter(Boolean);
  return kind(
    heading,
    `Markdown document "${shown(heading, 60)}"${sections.length ? ` with sections ${listOf(sections, 3)}` : ''}${code.length ? `, with ${listOf([...new Set(code)], 2)} examples` : ''}`,
    ['markdown', ...heading.split(/\s+/).slice(0, 2), ...sections.slice(0, 1)],
  );
}

/** `fetch('https://…', { method: 'POST' })`, `axios.post('/api/x')`: the first call of the snippet. */
export function understandFetch(text: string): SnippetKind | undefined {
  const fetchCall = /\bfetch\(\s*(['"`])([^'"`]+)\1\s*(?:,\s*\{([\s\S]{0,400}?)\})?/.exec(text);
  const axios = /\baxios\.(get|post|put|patch|delete)\(\s*(['"`])([^'"`]+)\2/.exec(text);
  const call = fetchCall
    ? {
        method: (/method\s*:\s*['"`](\w+)/.exec(fetchCall[3] ?? '')?.[1] ?? 'GET').toUpperCase(),
        url: fetchCall[2],
        tool: 'fetch',
      }
    : axios
      ? { method: axios[1].toUpperCase(), url: axios[3], tool: 'axios' }
      : undefined;
  if (!call) return undefined;
  const json = /JSON\.stringify|\.json\(\)/.test(text);
  return kind(
    `${call.tool} ${call.method} ${shown(call.url, 60)}`,
    `HTTP ${call.method} request to ${shown(call.url, 100)} with ${call.tool}${json ? ', exchanging JSON' : ''}`,
    ['http', call.tool, call.method],
  );
}
