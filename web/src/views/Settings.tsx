import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useApp } from '../app/context';
import { api, exportStore, importStore, request, type ImportFormat } from '../lib/api';
import { bytes } from '../lib/format';
import { ModelPicker, standIn } from './Copilot';

interface About {
  version: string;
  storage: string;
  databasePath: string | null;
  databaseBytes: number | null;
  dataDir: string;
  port: number;
  apiKeysRequired: boolean;
}

/** Settings (FUTURE_APPLET_MODULE_PLACEHOLDER_A): models, applications, agents over MCP, export and import, version and storage. */
export function Settings() {
  const about = useQuery({ queryKey: ['about'], queryFn: () => request<About>('GET', '/trove/about') });
  return (
    <div className="settings">
      <h2 className="page-title">Settings</h2>
      <Models />
      <Applications />
      <Agents about={about.data} />
      <Transfer />
      <section className="card" aria-labelledby="about-title">
        <h3 id="about-title">Version and storage</h3>
        {about.error ? (
          <p className="notice error">{(about.error as Error).message}</p>
        ) : !about.data ? (
          <p className="muted">Loading…</p>
        ) : (
          <dl className="facts">
            <dt>Version</dt>
            <dd>Trove {about.data.version}</dd>
            <dt>Storage</dt>
            <dd>
              {about.data.storage === 'sqlite'
                ? `SQLite, ${bytes(about.data.databaseBytes ?? 0)}`
                : 'PostgreSQL (DATABASE_URL)'}
            </dd>
            {about.data.databasePath && (
              <>
                <dt>Database</dt>
                <dd className="mono">{about.data.databasePath}</dd>
              </>
            )}
            <dt>Data directory</dt>
            <dd className="mono">{about.data.dataDir}</dd>
            <dt>API keys</dt>
            <dd>{about.data.apiKeysRequired ? 'Required (TROVE_API_KEYS)' : 'Not required (local use)'}</dd>
          </dl>
        )}
      </section>
    </div>
  );
}

function Models() {
  const { state, update, role } = useApp();
  const models = useQuery({ queryKey: ['models'], queryFn: api.models, staleTime: 60_000 });
  const served = (models.data ?? []).filter((m) => !standIn(m));
  const standIns = (models.data ?? []).filter(standIn);
  return (
    <section className="card" aria-labelledby="models-title">
      <h3 id="models-title">Models</h3>
      {role === 'app' ? (
        <label className="field inline">
          <span>Copilot answers with</span>
          <ModelPicker
            models={models.data ?? []}
            value={state.model ?? ''}
            onChange={(model) => update({ model: model || undefined })}
            label="Default model for Copilot"
          />
        </label>
      ) : (
        // Each applet is an origin of its own: Copilot's pane keeps its own choice, made in its picker.
        <p className="muted small-text">Copilot's pane picks its model under its message box.</p>
      )}
      <p className="muted small-text">
        Trove's own default is TROVE_DEFAULT_MODEL. Providers are configured on the server: TROVE_OLLAMA_URL (Ollama),
        TROVE_OPENAI_URL (any OpenAI-compatible server), TROVE_GGUF_PATHS (local GGUF files).
      </p>
      {models.error && <p className="notice error">{(models.error as Error).message}</p>}
      <ul className="model-list">
        {served.map((m) => (
          <li key={m.id}>
            <div className="model-name">
              {m.name}
              {m.usage === 'EMBEDDING' && <span className="chip small">embeddings</span>}
            </div>
            <div className="muted small-text">{m.description}</div>
          </li>
        ))}
      </ul>
      {standIns.length > 0 && (
        <details>
          <summary>{standIns.length} models the official clients name, not served here</summary>
          <ul className="model-list">
            {standIns.map((m) => (
              <li key={m.id}>
                <div className="model-name">{m.name}</div>
                <div className="muted small-text">{m.description}</div>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

function Applications() {
  const applications = useQuery({ queryKey: ['applications'], queryFn: api.applications, staleTime: 60_000 });
  const items = applications.data ?? [];
  return (
    <section className="card" aria-labelledby="apps-title">
      <h3 id="apps-title">Connected applications</h3>
      {applications.error && <p className="notice error">{(applications.error as Error).message}</p>}
      {!applications.isPending && !items.length && <p className="muted">No application has connected yet.</p>}
      <ul className="plain app-list">
        {items.map((a) => (
          <li key={a.id}>
            <span className="model-name">{a.name}</span>
            <span className="muted">
              {' '}
              {a.version} · {a.platform}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Agents({ about }: { about?: About }) {
  const { copy, notify } = useApp();
  const origin = `${location.protocol}//${location.hostname}:${about?.port ?? location.port}`;
  const url = `${origin}/model_context_protocol/2025-03-26/mcp`;
  const header = about?.apiKeysRequired ? { headers: { Authorization: 'Bearer <key>' } } : {};
  const configs: Array<{ name: string; text: string }> = [
    {
      name: 'Claude Code',
      text: `claude mcp add --transport http trove ${url}${about?.apiKeysRequired ? ' --header "Authorization: Bearer <key>"' : ''}`,
    },
    { name: 'Cursor (.cursor/mcp.json)', text: JSON.stringify({ mcpServers: { trove: { url, ...header } } }, null, 2) },
    {
      name: 'VS Code (.vscode/mcp.json)',
      text: JSON.stringify({ servers: { trove: { type: 'http', url, ...header } } }, null, 2),
    },
  ];
  return (
    <section className="card" aria-labelledby="agents-title">
      <h3 id="agents-title">Connect AI agents (MCP)</h3>
      <p className="muted small-text">
        Agents ask Trove about your snippets and save memories. Older clients use the SSE endpoint {origin}
        /model_context_protocol/2024-11-05/sse.
      </p>
      {configs.map((c) => (
        <figure key={c.name} className="code-block">
          <figcaption>
            <span>{c.name}</span>
            <button
              type="button"
              className="small"
              aria-label={`Copy the ${c.name} configuration`}
              onClick={() =>
                void copy(c.text).then(
                  () => notify('Copied'),
                  (e: Error) => notify(e.message, 'error'),
                )
              }
            >
              Copy
            </button>
          </figcaption>
          <pre tabIndex={0}>
            <code>{c.text}</code>
          </pre>
        </figure>
      ))}
    </section>
  );
}

function Transfer() {
  const { notify } = useApp();
  const client = useQueryClient();
  const file = useRef<HTMLInputElement>(null);
  const [format, setFormat] = useState<ImportFormat>('ndjson');
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const exporting = useMutation({ mutationFn: exportStore, onError: (e: Error) => notify(e.message, 'error') });
  const importing = useMutation({
    mutationFn: (f: File) => importStore(f, format, setProgress),
    onSuccess: (summary) => {
      setProgress(null);
      setResult(summarize(summary));
      void client.invalidateQueries();
    },
    onError: (e: Error) => {
      setProgress(null);
      setResult(null);
      notify(e.message, 'error');
    },
  });
  return (
    <section className="card" aria-labelledby="transfer-title">
      <h3 id="transfer-title">Export and import</h3>
      <div className="row wrap">
        <button type="button" onClick={() => exporting.mutate()} disabled={exporting.isPending}>
          {exporting.isPending ? 'Exporting…' : 'Export everything'}
        </button>
        <span className="muted small-text">One NDJSON file with every snippet, chat and memory.</span>
      </div>
      <div className="row wrap import-row">
        <select aria-label="Import format" value={format} onChange={(e) => setFormat(e.target.value as ImportFormat)}>
          <option value="ndjson">Trove export (.ndjson)</option>
          <option value="vscode">VS Code snippets (.json, .code-snippets)</option>
          <option value="masscode">massCode (db.json)</option>
        </select>
        <input ref={file} type="file" aria-label="File to import" onChange={() => setResult(null)} />
        <button
          type="button"
          className="primary"
          disabled={importing.isPending}
          onClick={() => file.current?.files?.[0] && importing.mutate(file.current.files[0])}
        >
          Import
        </button>
      </div>
      {progress !== null && (
        <div className="progress-row">
          <progress max={1} value={progress} aria-label="Upload progress" />
          <span className="muted small-text">{Math.round(progress * 100)}%</span>
        </div>
      )}
      {result && (
        <p className="notice" role="status">
          {result}
        </p>
      )}
    </section>
  );
}

/** "Imported 1 snippet (3 records), skipped 2 already here." from the ImportSummary (created and skipped per kind). */
export function summarize(summary: Record<string, unknown>): string {
  const created = (summary.created ?? {}) as Record<string, number>;
  const skipped = (summary.skipped ?? {}) as Record<string, number>;
  const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + (Number(b) || 0), 0);
  const assets = Number(created.asset ?? 0);
  const made = total(created);
  const left = total(skipped);
  const head = made
    ? `Imported ${assets} new snippet${assets === 1 ? '' : 's'} (${made} records)`
    : 'Imported: nothing new';
  return left ? `${head}; ${left} records were already here or skipped.` : `${head}.`;
}
