import { ChatMessage, ChatOptions, DiscoveredModel, ModelProvider } from './model-provider';
import { ProviderError } from './provider-error';
import { Fetch, providerFetch, providerJson, sseData } from './http';

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i;

/**
 * Any server speaking the OpenAI API (OpenAI itself, vLLM, llama.cpp's server, LM Studio,
 * LocalAI, ...): GET /models, POST /chat/completions streamed as server-sent events,
 * POST /embeddings with `encoding_format: "float"`. The server owns its memory, so load,
 * unload and cache deletion have nothing to do here.
 */
export class OpenAiProvider implements ModelProvider {
  readonly kind = 'openai' as const;
  readonly label: string;
  /** Listing is on the path of GET /models: a provider that hangs must not hold it for long. */
  private get listTimeoutMs(): number {
    return Math.min(this.timeoutMs, 5_000);
  }
  private readonly cloud: boolean;

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string | null,
    private readonly timeoutMs: number,
    private readonly send: Fetch,
  ) {
    this.label = `the OpenAI-compatible API at ${baseUrl}`;
    this.cloud = !LOOPBACK.test(new URL(baseUrl).hostname);
  }

  private get headers(): Record<string, string> {
    return this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {};
  }

  async list(): Promise<DiscoveredModel[]> {
    const out = await providerJson<{ data?: Array<{ id: string; owned_by?: string }> }>(
      this.send,
      this.label,
      `${this.baseUrl}/models`,
      {
        headers: this.headers,
        timeoutMs: this.listTimeoutMs,
      },
    );
    return (out.data ?? []).map((m) => ({
      unique: m.id,
      name: m.id,
      loaded: !this.cloud,
      // A server on this machine (LM Studio, llama.cpp, vLLM on loopback) has the model here; the
      // Pieces clients only offer models that are `cloud` or `downloaded`.
      downloaded: !this.cloud,
      cloud: this.cloud,
      embedding: /embed/i.test(m.id),
      description: `${m.id} served by ${this.label}${m.owned_by ? ` (owned by ${m.owned_by})` : ''}`,
    }));
  }

  async *chat(model: string, messages: ChatMessage[], options: ChatOptions = {}): AsyncIterable<string> {
    const response = await providerFetch(this.send, this.label, `${this.baseUrl}/chat/completions`, {
      body: {
        model,
        messages,
        stream: true,
        ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
        ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
      },
      headers: { ...this.headers, accept: 'text/event-stream' },
      signal: options.signal,
      timeoutMs: this.timeoutMs,
    });
    for await (const data of sseData(this.label, response)) {
      if (data.trim() === '[DONE]') return;
      let event: {
        choices?: Array<{ delta?: { content?: string | null } }>;
        error?: { message?: string; code?: string | number };
      };
      try {
        event = JSON.parse(data);
      } catch {
        throw new ProviderError('upstream-failed', `${this.label} sent an event that is not JSON`);
      }
      if (event.error) {
        const code = String(event.error.code ?? '');
        const kind =
          code === '429' || /rate/i.test(code)
            ? 'rate-limited'
            : /overload/i.test(`${code} ${event.error.message}`)
              ? 'unavailable'
              : 'upstream-failed';
        throw new ProviderError(kind, `${this.label}: ${event.error.message ?? code}`);
      }
      const content = event.choices?.[0]?.delta?.content;
      if (content) yield content;
    }
  }

  async embed(model: string, texts: string[]): Promise<number[][]> {
    const out = await providerJson<{ data?: Array<{ embedding: number[]; index: number }> }>(
      this.send,
      this.label,
      `${this.baseUrl}/embeddings`,
      {
        body: { model, input: texts, encoding_format: 'float' },
        headers: this.headers,
        timeoutMs: this.timeoutMs,
      },
    );
    const data = [...(out.data ?? [])].sort((a, b) => a.index - b.index);
    if (data.length !== texts.length || data.some((d) => !Array.isArray(d.embedding)))
      throw new ProviderError('upstream-failed', `${this.label} returned no embeddings`);
    return data.map((d) => d.embedding);
  }

  async load(): Promise<void> {
    // The server loads what it serves.
  }

  async unload(): Promise<void> {
    // Nothing held here.
  }

  async deleteCache(): Promise<boolean> {
    return false;
  }
}
