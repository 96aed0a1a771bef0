import { ChatMessage, ChatOptions, DiscoveredModel, ModelProvider, PullProgress } from './model-provider';
import { ProviderError } from './provider-error';
import { Fetch, lines, providerFetch, providerJson } from './http';

interface OllamaTag {
  name: string;
  model?: string;
  size?: number;
  details?: { family?: string; families?: string[] | null; parameter_size?: string; quantization_level?: string };
}

/** "8.0B" → 8000000000 */
function parameterCount(size: string | undefined): number | null {
  const m = /^([\d.]+)\s*([KMBT])?/i.exec(size ?? '');
  if (!m) return null;
  const scale = { K: 1e3, M: 1e6, B: 1e9, T: 1e12 }[(m[2] ?? '').toUpperCase() as 'K'] ?? 1;
  return Math.round(Number(m[1]) * scale);
}

const EMBEDDING_FAMILIES = /bert|embed|minilm/i;

/**
 * Ollama through its REST API: /api/tags (installed models), /api/ps (loaded ones),
 * /api/chat (streamed NDJSON), /api/embed, /api/generate (load; keep_alive 0 unloads),
 * DELETE /api/delete (removes the downloaded model), /api/pull (downloads one, streamed NDJSON
 * progress).
 */
export class OllamaProvider implements ModelProvider {
  readonly kind = 'ollama' as const;
  readonly label: string;
  /** Listing is on the path of GET /models: a provider that hangs must not hold it for long. */
  private get listTimeoutMs(): number {
    return Math.min(this.timeoutMs, 5_000);
  }

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
    private readonly send: Fetch,
  ) {
    this.label = `Ollama at ${baseUrl}`;
  }

  async list(): Promise<DiscoveredModel[]> {
    const [tags, ps] = await Promise.all([
      providerJson<{ models?: OllamaTag[] }>(this.send, this.label, `${this.baseUrl}/api/tags`, {
        timeoutMs: this.listTimeoutMs,
      }),
      providerJson<{ models?: OllamaTag[] }>(this.send, this.label, `${this.baseUrl}/api/ps`, {
        timeoutMs: this.listTimeoutMs,
      }),
    ]);
    const loaded = new Set((ps.models ?? []).map((m) => m.name ?? m.model));
    return (tags.models ?? []).map((m) => {
      const families = [m.details?.family ?? '', ...(m.details?.families ?? [])].join(' ');
      return {
        unique: m.name,
        name: m.name,
        loaded: loaded.has(m.name),
        downloaded: true,
        cloud: false,
        embedding: EMBEDDING_FAMILIES.test(families) || /embed/i.test(m.name),
        bytes: m.size,
        parameters: parameterCount(m.details?.parameter_size),
        quantization: m.details?.quantization_level,
        description: `Ollama model ${m.name}${m.details?.parameter_size ? ` (${m.details.parameter_size} parameters)` : ''}`,
      };
    });
  }

  async *chat(model: string, messages: ChatMessage[], options: ChatOptions = {}): AsyncIterable<string> {
    const response = await providerFetch(this.send, this.label, `${this.baseUrl}/api/chat`, {
      body: {
        model,
        messages,
        stream: true,
        options: {
          ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
          ...(options.maxTokens ? { num_predict: options.maxTokens } : {}),
        },
      },
      signal: options.signal,
      timeoutMs: this.timeoutMs,
    });
    for await (const line of lines(this.label, response)) {
      if (!line.trim()) continue;
      let event: { message?: { content?: string }; done?: boolean; error?: string };
      try {
        event = JSON.parse(line);
      } catch {
        throw new ProviderError('upstream-failed', `${this.label} sent a line that is not JSON`);
      }
      if (event.error)
        throw new ProviderError(
          /overload|busy|capacity/i.test(event.error) ? 'unavailable' : 'upstream-failed',
          `${this.label}: ${event.error}`,
        );
      if (event.message?.content) yield event.message.content;
      if (event.done) return;
    }
  }

  async embed(model: string, texts: string[]): Promise<number[][]> {
    const out = await providerJson<{ embeddings?: number[][] }>(this.send, this.label, `${this.baseUrl}/api/embed`, {
      body: { model, input: texts },
      timeoutMs: this.timeoutMs,
    });
    if (!Array.isArray(out.embeddings) || out.embeddings.length !== texts.length)
      throw new ProviderError('upstream-failed', `${this.label} returned no embeddings`);
    return out.embeddings;
  }

  async load(model: string): Promise<void> {
    await providerJson(this.send, this.label, `${this.baseUrl}/api/generate`, {
      body: { model, stream: false },
      timeoutMs: this.timeoutMs,
    });
  }

  async unload(model: string): Promise<void> {
    await providerJson(this.send, this.label, `${this.baseUrl}/api/generate`, {
      body: { model, keep_alive: 0, stream: false },
      timeoutMs: this.timeoutMs,
    });
  }

  /**
   * POST /api/pull with `stream: true`: one JSON line per step (`pulling manifest`, then
   * `pulling <digest>` with `total` and `completed` bytes, `verifying sha256 digest`,
   * `writing manifest`, `success`), or `{"error"}`. A pull may take hours: no overall time limit,
   * but one that sends nothing for TROVE_PROVIDER_TIMEOUT_MS is given up. Aborting `signal`
   * closes the connection, which stops Ollama's pull.
   */
  async *pull(model: string, signal: AbortSignal): AsyncIterable<PullProgress> {
    const stalled = new AbortController();
    let timer = setTimeout(() => stalled.abort(), this.timeoutMs);
    try {
      const response = await providerFetch(this.send, this.label, `${this.baseUrl}/api/pull`, {
        body: { model, stream: true },
        signal: AbortSignal.any([signal, stalled.signal]),
        timeoutMs: 2 ** 31 - 1,
      });
      for await (const line of lines(this.label, response)) {
        clearTimeout(timer);
        timer = setTimeout(() => stalled.abort(), this.timeoutMs);
        if (!line.trim()) continue;
        let event: PullProgress & { error?: string };
        try {
          event = JSON.parse(line);
        } catch {
          throw new ProviderError('upstream-failed', `${this.label} sent a line that is not JSON`);
        }
        if (event.error)
          throw new ProviderError(
            /not found|does not exist/i.test(event.error) ? 'not-found' : 'upstream-failed',
            `${this.label}: ${event.error}`,
          );
        yield {
          status: String(event.status ?? ''),
          digest: event.digest,
          total: event.total,
          completed: event.completed,
        };
        if (event.status === 'success') return;
      }
      throw new ProviderError('upstream-failed', `${this.label} ended the pull of ${model} before it succeeded`);
    } catch (error) {
      if (stalled.signal.aborted && !signal.aborted)
        throw new ProviderError(
          'unavailable',
          `${this.label} sent nothing for ${this.timeoutMs} ms while pulling ${model}`,
        );
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async deleteCache(model: string): Promise<boolean> {
    await providerFetch(this.send, this.label, `${this.baseUrl}/api/delete`, {
      method: 'DELETE',
      body: { model },
      timeoutMs: this.timeoutMs,
    });
    return true;
  }
}
