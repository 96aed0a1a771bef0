/**
 * CodeMirror 6, loaded on first use (its own chunk): highlighting for the snippet's language
 * (each language's support is another chunk, loaded when a snippet needs it), read-only in the
 * snippet view, editable when editing or saving a new snippet.
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { defaultHighlightStyle, LanguageDescription, syntaxHighlighting } from '@codemirror/language';
import { languages } from '@codemirror/language-data';
import { Compartment, EditorState } from '@codemirror/state';
import { oneDarkHighlightStyle } from '@codemirror/theme-one-dark';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';

export interface CodeEditorProps {
  value: string;
  language?: string;
  editable?: boolean;
  dark: boolean;
  label: string;
  onChange?: (value: string) => void;
}

function describe(language: string | undefined): LanguageDescription | null {
  if (!language || language === 'UNKNOWN') return null;
  return (
    LanguageDescription.matchFilename(languages, `snippet.${language}`) ??
    LanguageDescription.matchLanguageName(languages, language, true)
  );
}

export default function CodeEditor({ value, language, editable = false, dark, label, onChange }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const lang = useRef(new Compartment());
  const look = useRef(new Compartment());
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  });

  useEffect(() => {
    const state = EditorState.create({
      doc: value,
      extensions: [
        lineNumbers(),
        history(),
        keymap.of([...defaultKeymap, ...historyKeymap, ...(editable ? [indentWithTab] : [])]),
        EditorState.readOnly.of(!editable),
        EditorView.editable.of(editable),
        EditorView.contentAttributes.of({ 'aria-label': label, ...(editable ? {} : { 'aria-readonly': 'true' }) }),
        EditorView.lineWrapping,
        EditorView.cspNonce.of(document.querySelector<HTMLMetaElement>('meta[name="trove-nonce"]')?.content ?? ''),
        lang.current.of([]),
        look.current.of(syntaxHighlighting(dark ? oneDarkHighlightStyle : defaultHighlightStyle)),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) changed.current?.(update.state.doc.toString());
        }),
      ],
    });
    view.current = new EditorView({ state, parent: host.current! });
    return () => view.current?.destroy();
    // The editor is made once per mount; value changes from outside are applied below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editable]);

  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value)
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({
      effects: look.current.reconfigure(syntaxHighlighting(dark ? oneDarkHighlightStyle : defaultHighlightStyle)),
    });
  }, [dark]);

  useEffect(() => {
    let live = true;
    const description = describe(language);
    if (!description) {
      view.current?.dispatch({ effects: lang.current.reconfigure([]) });
      return;
    }
    void description.load().then((support) => {
      if (live) view.current?.dispatch({ effects: lang.current.reconfigure(support) });
    });
    return () => {
      live = false;
    };
  }, [language]);

  return <div className="code-editor" ref={host} data-testid="code" />;
}
