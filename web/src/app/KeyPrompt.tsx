import { useEffect, useRef, useState } from 'react';

/** Trove requires an API key (TROVE_API_KEYS): asked once, kept in this tab's sessionStorage, sent in a header. */
export function KeyPrompt({ onKey }: { onKey: (key: string) => void }) {
  const [key, setKey] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
  }, []);
  return (
    <div className="modal-backdrop">
      <form
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="key-title"
        onSubmit={(event) => {
          event.preventDefault();
          if (key.trim()) onKey(key.trim());
        }}
      >
        <h2 id="key-title">API key required</h2>
        <p className="muted">This Trove asks for an API key. It stays in this tab and is sent only to Trove, in a header.</p>
        <label className="field">
          <span>API key</span>
          <input ref={input} type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} />
        </label>
        <div className="row end">
          <button type="submit" className="primary" disabled={!key.trim()}>
            Continue
          </button>
        </div>
      </form>
    </div>
  );
}
