/**
 * One interface for every source of language models: the offline extractive engine,
 * Ollama, any OpenAI-compatible server and local GGUF files through node-llama-cpp.
 * QGPT, the model routes and the conversation commands only ever talk to this.
 */
export type ProviderKind = 'offline' | 'ollama' | 'openai' | 'llama_cpp';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatOptions {
  temperature?: number;
  maxTokens?: number;
  /** Aborts the request (stop on the stream, client gone). */
  signal?: AbortSignal;
}

/** A model as a provider reports it. */
export interface DiscoveredModel {
  /** The provider's own name of the model (`llama3.2:1b`, `gpt-4o-mini`, a file path). */
  unique: string;
  /** Display name. */
  name: string;
  /** Held in memory right now. */
  loaded: boolean;
  /** Its files are on this machine. */
  downloaded: boolean;
  /** Runs on someone else's machine. */
  cloud: boolean;
  /** Answers with embeddings rather than text. */
  embedding: boolean;
  bytes?: number;
  maxTokens?: number | null;
  parameters?: number | null;
  quantization?: string;
  description?: string;
}

/** One step of a model download as the provider reports it (Ollama's pull progress lines). */
export interface PullProgress {
  /** What the provider is doing: `pulling manifest`, `pulling <digest>`, `verifying sha256 digest`, `success`, ... */
  status: string;
  /** The layer being downloaded, with its size and how much of it has arrived (bytes). */
  digest?: string;
  total?: number;
  completed?: number;
}

export interface ModelProvider {
  readonly kind: ProviderKind;
  /** Human name of the provider for messages ("Ollama at http://..."). */
  readonly label: string;
  list(): Promise<DiscoveredModel[]>;
  /** The answer as it is produced, chunk by chunk. */
  chat(model: string, messages: ChatMessage[], options?: ChatOptions): AsyncIterable<string>;
  embed(model: string, texts: string[]): Promise<number[][]>;
  load(model: string): Promise<void>;
  /** Frees the memory the model holds; a model that is not loaded is left as it is. */
  unload(model: string): Promise<void>;
  /** Removes the files the provider downloaded for the model; false when it holds none it may remove. */
  deleteCache(model: string): Promise<boolean>;
  /**
   * Downloads the model onto this machine, reporting progress as it goes; ends after the
   * provider's success, throws ProviderError on its failure, stops when `signal` aborts. Only
   * providers that can download models have it (Ollama).
   */
  pull?(model: string, signal: AbortSignal): AsyncIterable<PullProgress>;
  /** Releases what the provider holds (child processes) at shutdown. */
  close?(): Promise<void>;
}

/** The providers configured in this process (injection token). */
export const MODEL_PROVIDERS = Symbol('MODEL_PROVIDERS');

/** Collects a streamed answer. */
export async function collect(chunks: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}
