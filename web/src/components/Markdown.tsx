import { useMemo } from 'react';
import { useApp } from '../app/context';
import { markdownBlocks } from '../lib/markdown';

/** An answer's Markdown: sanitized HTML for prose, code blocks as text with Copy (and Insert when the host can). */
export function Markdown({ text }: { text: string }) {
  const { host } = useApp();
  const blocks = useMemo(() => markdownBlocks(text), [text]);
  return (
    <div
      className="markdown"
      onClick={(e) => {
        const link = (e.target as HTMLElement).closest('a');
        if (link && host.embedded && link.getAttribute('href')) {
          e.preventDefault();
          host.send('openLink', { link: link.getAttribute('href') });
        }
      }}
    >
      {blocks.map((block, i) =>
        block.kind === 'html' ? (
          <div key={i} dangerouslySetInnerHTML={{ __html: block.html }} />
        ) : (
          <CodeBlock key={i} language={block.language} text={block.text} />
        ),
      )}
    </div>
  );
}

function CodeBlock({ language, text }: { language: string; text: string }) {
  const { host, copy, notify } = useApp();
  return (
    <figure className="code-block">
      <figcaption>
        <span className="muted">{language || 'code'}</span>
        <span className="row">
          {host.can('insertAtCursor') && (
            <button type="button" className="small" onClick={() => host.send('insertAtCursor', text)}>
              Insert
            </button>
          )}
          <button
            type="button"
            className="small"
            onClick={() =>
              void copy(text).then(
                () => notify('Copied'),
                (e: Error) => notify(e.message, 'error'),
              )
            }
          >
            Copy
          </button>
        </span>
      </figcaption>
      <pre tabIndex={0}>
        <code>{text}</code>
      </pre>
    </figure>
  );
}
