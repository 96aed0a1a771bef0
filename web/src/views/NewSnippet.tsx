import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApp } from '../app/context';
import { api } from '../lib/api';
import type { Asset } from '../lib/types';

/** Save a snippet by pasting it: Trove detects the language and generates the name, description and tags. */
export function NewSnippet({ onCancel, onSaved }: { onCancel: () => void; onSaved: (asset: Asset) => void }) {
  const { application, notify } = useApp();
  const client = useQueryClient();
  const [text, setText] = useState('');
  const save = useMutation({
    mutationFn: () => api.createAsset(text, application),
    onSuccess: (asset) => {
      client.setQueryData(['asset', asset.id], asset);
      void client.invalidateQueries({ queryKey: ['assets'] });
      notify('Saved: Trove named and tagged it');
      onSaved(asset);
    },
    onError: (error: Error) => notify(error.message, 'error'),
  });
  return (
    <form
      className="detail"
      aria-labelledby="new-title"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) save.mutate();
      }}
    >
      <div className="detail-head">
        <h2 id="new-title" className="detail-title">
          New snippet
        </h2>
      </div>
      <p className="muted">Paste code or text. Trove detects its language and writes its name, description and tags.</p>
      <textarea
        className="paste"
        aria-label="Snippet content"
        placeholder="Paste here"
        value={text}
        onChange={(e) => setText(e.target.value)}
        spellCheck={false}
        autoFocus
      />
      <div className="row end">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={!text.trim() || save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}
