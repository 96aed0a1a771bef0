import { useEffect, useRef, useState } from 'react';

/**
 * Trove requires an API key (TROVE_API_KEYS, or a team user's token): asked once, kept in this
 * tab's sessionStorage, sent in a header. When Trove signs people in with OpenID Connect
 * (`signIn`: the issuer's host), a sign-in button comes first.
 */
export function KeyPrompt({ onKey, signIn = null }: { onKey: (key: string) => void; signIn?: string | null }) {
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
        <h2 id="key-title">{signIn ? 'Sign in' : 'API key required'}</h2>
        {signIn && (
          <>
            <p>
              <a className="button primary" href="/auth/login">
                Sign in with {signIn}
              </a>
            </p>
            <p className="muted">Or use an API key:</p>
          </>
        )}
        <p className="muted">
          This Trove asks for an API key. It stays in this tab and is sent only to Trove, in a header.
        </p>
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
