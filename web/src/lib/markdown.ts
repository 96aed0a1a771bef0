/**
 * Markdown from the store and from answers, made safe: marked turns it into HTML (raw HTML in it
 * becomes text), DOMPurify keeps only inert markup (no script, no event handler, no javascript: or data: link, no image, style
 * or form), and every link opens outside the app. Code blocks are not HTML at all: the caller
 * renders them as text with their own buttons.
 */
import DOMPurify from 'dompurify';
import { Lexer, Parser, Renderer, type Token } from 'marked';

const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** Raw HTML in Markdown (block or inline) is shown as the text it is: answers need none, and none is parsed. */
const renderer = new Renderer();
renderer.html = ({ text }) => escapeHtml(text);

let hooked = false;

function purify(html: string): string {
  if (!hooked) {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        const href = node.getAttribute('href') ?? '';
        if (!/^https?:\/\//i.test(href)) node.removeAttribute('href');
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    });
    hooked = true;
  }
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: [
      'img',
      'style',
      'form',
      'input',
      'button',
      'textarea',
      'select',
      'iframe',
      'object',
      'embed',
      'svg',
      'math',
      'video',
      'audio',
    ],
    FORBID_ATTR: ['style', 'class', 'id'],
  });
}

export type Block = { kind: 'html'; html: string } | { kind: 'code'; language: string; text: string };

/** The Markdown as blocks: sanitized HTML, and code blocks kept as text. */
export function markdownBlocks(markdown: string): Block[] {
  const tokens = Lexer.lex(markdown, { gfm: true });
  const blocks: Block[] = [];
  let pending: Token[] = [];
  const flush = () => {
    if (!pending.length) return;
    const list = Object.assign(pending, { links: tokens.links });
    blocks.push({ kind: 'html', html: purify(Parser.parse(list, { gfm: true, renderer })) });
    pending = [];
  };
  for (const token of tokens) {
    if (token.type === 'code') {
      flush();
      blocks.push({ kind: 'code', language: (token.lang ?? '').split(/\s/)[0], text: token.text });
    } else pending.push(token);
  }
  flush();
  return blocks;
}
