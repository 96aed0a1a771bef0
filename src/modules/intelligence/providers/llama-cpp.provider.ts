import { Logger } from '@nestjs/common';
import { ChildProcess, fork } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ChatMessage, ChatOptions, DiscoveredModel, ModelProvider } from './model-provider';
import { ProviderError } from './provider-error';

const WORKER = join(__dirname, 'llama-cpp.worker.mjs');

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onChunk?: (chunk: string) => void;
}

/**
 * Local GGUF files through node-llama-cpp (an optional dependency; its prebuilt binary comes
 * from the npm registry). TROVE_GGUF_PATHS names files or directories of them; nothing is
 * ever downloaded. The library runs in a child process (llama-cpp.worker.mjs), started on
 * first use: a native crash fails the requests in flight with a 502, not the service.
 */
export class LlamaCppProvider implements ModelProvider {
  readonly kind = 'llama_cpp' as const;
  readonly label = 'node-llama-cpp';
  private readonly logger = new Logger('LlamaCpp');
  private worker: ChildProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private readonly loadedFiles = new Set<string>();
  private nextId = 1;

  constructor(private readonly paths: string[]) {}

  /** The GGUF files under the configured paths. */
  files(): string[] {
    const out: string[] = [];
    for (const path of this.paths) {
      try {
        const stat = statSync(path);
        if (stat.isFile() && path.endsWith('.gguf')) out.push(path);
        else if (stat.isDirectory())
          for (const name of readdirSync(path).sort())
            if (name.endsWith('.gguf') && statSync(join(path, name)).isFile()) out.push(join(path, name));
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
      loaded: this.loadedFiles.has(file),
      downloaded: true,
      cloud: false,
      embedding: /embed/i.test(basename(file)),
      bytes: statSync(file).size,
      description: `Local GGUF file ${file}, run by node-llama-cpp on this machine's CPU`,
    }));
  }

  private start(): ChildProcess {
    if (this.worker) return this.worker;
    const worker = fork(WORKER, [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    worker.stderr?.on('data', (data: Buffer) => this.logger.debug(data.toString().trim()));
    worker.on(
      'message',
      (message: { id: number; chunk?: string; ok?: boolean; result?: unknown; error?: string; missing?: boolean }) => {
        const job = this.pending.get(message.id);
        if (!job) return;
        if (message.chunk !== undefined) return job.onChunk?.(message.chunk);
        this.pending.delete(message.id);
        if (message.ok) job.resolve(message.result);
        else if (message.missing)
          job.reject(
            new ProviderError(
              'unavailable',
              `local GGUF models need the optional package node-llama-cpp (npm install node-llama-cpp@3.22.1): ${message.error}`,
            ),
          );
        else job.reject(new ProviderError('upstream-failed', `node-llama-cpp: ${message.error}`));
      },
    );
    worker.on('exit', (code, signal) => {
      if (this.worker === worker) this.worker = null;
      this.loadedFiles.clear();
      for (const [id, job] of this.pending) {
        this.pending.delete(id);
        job.reject(
          new ProviderError('upstream-failed', `the node-llama-cpp worker stopped (${signal ?? `exit code ${code}`})`),
        );
      }
    });
    worker.unref();
    (worker as unknown as { channel?: { unref(): void } }).channel?.unref();
    this.worker = worker;
    return worker;
  }

  private call<T>(
    op: string,
    args: Record<string, unknown>,
    onChunk?: (chunk: string) => void,
  ): { id: number; done: Promise<T> } {
    const worker = this.start();
    const id = this.nextId++;
    const done = new Promise<T>((resolve, reject) =>
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onChunk }),
    );
    worker.send({ id, op, ...args });
    return { id, done };
  }

  private check(file: string): void {
    if (!this.files().includes(file))
      throw new ProviderError('not-found', `${file} is not a GGUF file under TROVE_GGUF_PATHS`);
  }

  async *chat(file: string, messages: ChatMessage[], options: ChatOptions = {}): AsyncIterable<string> {
    this.check(file);
    const queue: string[] = [];
    let wake: (() => void) | null = null;
    let finished = false;
    let failure: Error | null = null;
    const { id, done } = this.call(
      'chat',
      { file, messages, maxTokens: options.maxTokens, temperature: options.temperature },
      (chunk) => {
        queue.push(chunk);
        wake?.();
      },
    );
    this.loadedFiles.add(file);
    done
      .catch((error: Error) => (failure = error))
      .finally(() => {
        finished = true;
        wake?.();
      });
    const abort = () => this.worker?.send({ id: this.nextId++, op: 'abort', target: id });
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      for (;;) {
        if (queue.length) {
          yield queue.shift()!;
          continue;
        }
        if (finished) break;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
      if (failure) throw failure;
    } finally {
      options.signal?.removeEventListener('abort', abort);
      if (!finished) abort();
    }
  }

  async embed(file: string, texts: string[]): Promise<number[][]> {
    this.check(file);
    const vectors = await this.call<number[][]>('embed', { file, texts }).done;
    this.loadedFiles.add(file);
    return vectors;
  }

  async load(file: string): Promise<void> {
    this.check(file);
    await this.call('load', { file }).done;
    this.loadedFiles.add(file);
  }

  async unload(file: string): Promise<void> {
    if (!this.worker || !this.loadedFiles.has(file)) return;
    await this.call('unload', { file }).done;
    this.loadedFiles.delete(file);
  }

  async deleteCache(): Promise<boolean> {
    // The user's own file: Trove downloaded nothing and deletes nothing.
    return false;
  }

  async close(): Promise<void> {
    this.worker?.kill();
    this.worker = null;
  }
}
