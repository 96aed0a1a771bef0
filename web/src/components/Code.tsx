import { lazy, Suspense } from 'react';
import { useDark } from '../app/context';
import type { CodeEditorProps } from './CodeEditor';

const CodeEditor = lazy(() => import('./CodeEditor'));

/** A snippet's code: plain text at once (never HTML), then CodeMirror's highlighting once its chunk has loaded. */
export function Code(props: Omit<CodeEditorProps, 'dark'>) {
  const dark = useDark();
  const fallback = (
    <pre className="code-fallback" aria-label={props.label} data-testid="code">
      {props.value}
    </pre>
  );
  return (
    <Suspense fallback={fallback}>
      <CodeEditor {...props} dark={dark} />
    </Suspense>
  );
}
