import { Logger } from '@nestjs/common';
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ChatMessage, ChatOptions, DiscoveredModel, ModelProvider } from './model-provider';
import { ProviderError } from './provider-error';

/* eslint-disable @typescript-eslint/no-explicit-any */
type LlamaModule = any;

const PACKAGE = 'node-llama-cpp';

/** Loaded lazily: node-llama-cpp is an optional dependency (its prebuilt binary comes from the npm registry). */
async function importLlama(): Promise<LlamaModule> {
  try {
    // A variable keeps TypeScript from resolving (and requiring) the optional package at build time.
    const name = PACKAGE;
    return await (new Function('n', 'return import(n)') as (n: string) => Promise<LlamaModule>)(name);
  } catch (error) {
    throw new ProviderError(503, `local GGUF models need the optional package node-llama-cpp (npm install node-llama-cpp@3.22.1): ${(error as Error).message}`);
  }
}

interface Loaded {
  model: any;
  context: any | null;
}

/**
 * Local GGUF files through node-llama-cpp: TROVE_GGUF_PATHS names files or directories of
 * them; nothing is ever downloaded. A model is loaded on first use (or POST /models/unload
 * frees it); chat runs a LlamaChatSession over the messages, streaming text chunks.
 */
export class LlamaCppProvider implements ModelProvider {
  readonly kind = 'llama_cpp' as const;
  readonly label = 'node-llama-cpp';
  private readonly logger = new Logger('LlamaCpp');
  private llama: Promise<any> | null = null;
  private readonly loaded = new Map<string, Promise<Loaded>>();

  constructor(private readonly paths: string[]) {}

  /** The GGUF files under the configured paths. */
  files(): string[] {
    const out: string[] = [];
    for (const path of this.paths) {
      try {
        const stat = statSync(path);
        if (stat.isFile() && path.endsWith('.gguf')) out.push(path);
        else if (stat.isDirectory()) for (const name of readdirSync(path).sort()) if (name.endsWith('.gguf') && statSync(join(path, name)).isFile()) out.push(join(path, name));
      } catch {
        this.logger.warn(`TROVE_GGUF_PATHS entry ${path} is not readable`);
      }
    }
    return out;
  }

  async list(): Promise<DiscoveredModel[]> {
    return this.files().map((file) => ({
      unique: file,
      name: basename(file, '.gguf'),
      loaded: this.loaded.has(file),
      downloaded: true,
      cloud: false,
      embedding: /embed/i.test(basename(file)),
      bytes: statSync(file).size,
      description: `Local GGUF file ${file}, run by node-llama-cpp on this machine`,
    }));
  }

  private async model(file: string): Promise<Loaded> {
    if (!this.files().includes(file)) throw new ProviderError(404, `${file} is not a GGUF file under TROVE_GGUF_PATHS`);
    let entry = this.loaded.get(file);
    if (!entry) {
      entry = (async () => {
        const lib = await importLlama();
        this.llama ??= lib.getLlama({ gpu: false, build: 'never' });
        const llama = await this.llama;
        try {
          return { model: await llama.loadModel({ modelPath: file }), context: null };
        } catch (error) {
          throw new ProviderError(502, `node-llama-cpp could not load ${file}: ${(error as Error).message}`);
        }
      })();
      this.loaded.set(file, entry);
      entry.catch(() => this.loaded.delete(file));
    }
    return entry;
  }

  async *chat(file: string, messages: ChatMessage[], options: ChatOptions = {}): AsyncIterable<string> {
    const lib = await importLlama();
    const { model } = await this.model(file);
    const context = await model.createContext({ contextSize: Math.min(4096, model.trainContextSize ?? 4096) });
    try {
      const history = messages.slice(0, -1).map((m) =>
        m.role === 'system' ? { type: 'system', text: m.content } : m.role === 'user' ? { type: 'user', text: m.content } : { type: 'model', response: [m.content] },
      );
      const last = messages[messages.length - 1];
      const session = new lib.LlamaChatSession({ contextSequence: context.getSequence() });
      session.setChatHistory(history);
      // node-llama-cpp reports text through a callback; a small queue turns it into a stream.
      const queue: string[] = [];
      let wake: (() => void) | null = null;
      let done = false;
      let failure: unknown = null;
      session
        .prompt(last?.content ?? '', {
          maxTokens: options.maxTokens ?? 512,
          temperature: options.temperature,
          signal: options.signal,
          stopOnAbortSignal: true,
          onTextChunk: (chunk: string) => {
            queue.push(chunk);
            wake?.();
          },
        })
        .catch((error: unknown) => (failure = error))
        .finally(() => {
          done = true;
          wake?.();
        });
      while (true) {
        if (queue.length) {
          yield queue.shift()!;
          continue;
        }
        if (done) break;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
      if (failure) throw failure instanceof ProviderError ? failure : new ProviderError(502, `node-llama-cpp failed: ${(failure as Error).message}`);
    } finally {
      await context.dispose();
    }
  }

  async embed(file: string, texts: string[]): Promise<number[][]> {
    const { model } = await this.model(file);
    const context = await model.createEmbeddingContext();
    try {
      const out: number[][] = [];
      for (const text of texts) out.push([...(await context.getEmbeddingFor(text)).vector]);
      return out;
    } finally {
      await context.dispose();
    }
  }

  async load(file: string): Promise<void> {
    await this.model(file);
  }

  async unload(file: string): Promise<void> {
    const entry = this.loaded.get(file);
    if (!entry) return;
    this.loaded.delete(file);
    const { model } = await entry.catch(() => ({ model: null }));
    await model?.dispose();
  }

  /** Loaded files (for unload-all). */
  loadedFiles(): string[] {
    return [...this.loaded.keys()];
  }

  async deleteCache(): Promise<boolean> {
    // The user's own file: Trove downloaded nothing and deletes nothing.
    return false;
  }
}
