import type { ModelResult } from '@vscode/vscode-languagedetection';
import { Worker } from 'worker_threads';

/**
 * The guesslang model shipped in @vscode/vscode-languagedetection (TF.js, CPU backend, model
 * files inside the npm package, no network), run in one worker thread.
 *
 * Why a worker: a call costs 10-90 ms of CPU (the graph always processes a 10 000-byte padded
 * window) and allocates a lot of short-lived garbage. On the main thread that blocks the event
 * loop, and in a big heap (a server, or ts-jest with the TypeScript compiler loaded) the garbage
 * collection alone made a call 3-5x slower. The worker has its own small heap.
 *
 * - Loaded lazily, once per process: the first `predict` (or `load`) starts the worker and loads
 *   the model; every caller, concurrent or later, awaits the same promise. A failed load (or a
 *   crashed worker) is forgotten so the next call starts a new one.
 * - Calls are serialised: one request in the worker at a time.
 * - `ModelOperations.runModel` never disposes its input and output tensors (3 per call, the input
 *   holding the whole text), so a long-running process would leak. In the worker each call after
 *   the first runs between `startScope`/`endScope` of the TF.js engine the package registers on
 *   `globalThis._tfengine`, which disposes them. Not the first call: it loads the model, and the
 *   scope would dispose the weights with it.
 * - The worker is unref'd while idle, so it never keeps the process alive; `dispose()` ends it.
 */

/** The model's own lower bound: `runModel` returns [] for anything shorter. */
const GUESSLANG_MIN_CHARS = 20;
/** The graph pads/truncates to 10 000 bytes; anything past that is ignored by the model anyway. */
const GUESSLANG_MAX_CHARS = 10_000;

const WARMUP_TEXT = 'function warmUp(value) {\n  return value * 2;\n}\n';

/** Runs inside the worker (plain CommonJS, evaluated from this string so no separate build output is needed). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('worker_threads');
const { ModelOperations } = require(workerData.libraryPath);
const ops = new ModelOperations({ minContentSize: workerData.minChars, maxContentSize: workerData.maxChars });
let loaded = false;
let chain = Promise.resolve();
function engine() {
  const e = globalThis._tfengine;
  return e && typeof e.startScope === 'function' && typeof e.endScope === 'function' ? e : undefined;
}
async function run(text) {
  const e = loaded ? engine() : undefined;
  if (!e) return ops.runModel(text);
  e.startScope('trove-language-detection');
  try { return await ops.runModel(text); } finally { e.endScope(); }
}
parentPort.on('message', ({ id, text, stats }) => {
  chain = chain.then(async () => {
    try {
      if (stats) {
        const e = engine();
        parentPort.postMessage({ id, stats: { numTensors: e ? e.memory().numTensors : 0 } });
        return;
      }
      const results = await run(text);
      loaded = true;
      parentPort.postMessage({ id, results: results.map((r) => [r.languageId, r.confidence]) });
    } catch (err) {
      parentPort.postMessage({ id, error: String((err && err.message) || err) });
    }
  });
});
`;

export interface GuesslangStats {
  /** live TF.js tensors in the worker: constant after the first call unless something leaks. */
  numTensors: number;
}

interface WorkerReply {
  id: number;
  results?: Array<[string, number]>;
  stats?: GuesslangStats;
  error?: string;
}

interface Pending {
  resolve(reply: WorkerReply): void;
  reject(err: Error): void;
}

export class GuesslangModel {
  private worker: Worker | null = null;
  private loading: Promise<void> | null = null;
  private ready = false;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();
  private loads = 0;

  constructor(private readonly maxChars: number = GUESSLANG_MAX_CHARS) {}

  /** How many times a model load was started (1 after any number of calls, unless a load failed or dispose() ran). */
  get loadCount(): number {
    return this.loads;
  }

  get isLoaded(): boolean {
    return this.ready;
  }

  /** Starts the worker that holds the model (separate so tests can spy on it). */
  protected createWorker(): Worker {
    return new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        libraryPath: require.resolve('@vscode/vscode-languagedetection'),
        minChars: GUESSLANG_MIN_CHARS,
        maxChars: this.maxChars,
      },
    });
  }

  /** Load the model (once); concurrent callers share the same load. */
  load(): Promise<void> {
    if (!this.loading) {
      this.loads++;
      const loading = (async () => {
        const worker = this.createWorker();
        worker.unref();
        worker.on('message', (reply: WorkerReply) => this.onReply(reply));
        worker.on('error', (err) => this.onWorkerGone(worker, err));
        worker.on('exit', (code) => this.onWorkerGone(worker, new Error(`guesslang worker exited (code ${code})`)));
        this.worker = worker;
        // ModelOperations loads lazily inside runModel: one tiny run forces the load and warms the graph.
        await this.run(WARMUP_TEXT);
        this.ready = true;
      })();
      this.loading = loading;
      loading.catch((err: Error) => {
        if (this.loading !== loading) return;
        const worker = this.worker;
        this.reset(err);
        void worker?.terminate();
      });
    }
    return this.loading;
  }

  /** guesslang ids with softmax confidences, best first; [] when the text is too short. */
  async predict(text: string): Promise<ModelResult[]> {
    if (text.trim().length < GUESSLANG_MIN_CHARS) return [];
    await this.load();
    return this.run(text.length > this.maxChars ? text.slice(0, this.maxChars) : text);
  }

  /** Diagnostics from the loaded worker (loads the model if needed). */
  async stats(): Promise<GuesslangStats> {
    await this.load();
    const reply = await this.request({ stats: true });
    return reply.stats ?? { numTensors: 0 };
  }

  /** Ends the worker; the next call loads the model again. */
  async dispose(): Promise<void> {
    const worker = this.worker;
    this.reset(new Error('guesslang model disposed'));
    if (worker) await worker.terminate();
  }

  private reset(err: Error): void {
    this.worker = null;
    this.loading = null;
    this.ready = false;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  private async run(text: string): Promise<ModelResult[]> {
    const reply = await this.request({ text });
    return (reply.results ?? []).map(([languageId, confidence]) => ({ languageId, confidence }));
  }

  private request(message: { text?: string; stats?: boolean }): Promise<WorkerReply> {
    const send = () =>
      new Promise<WorkerReply>((resolve, reject) => {
        const worker = this.worker;
        if (!worker) return reject(new Error('guesslang worker is not running'));
        const id = this.nextId++;
        this.pending.set(id, { resolve, reject });
        worker.ref(); // keep the process alive while an answer is due
        worker.postMessage({ id, ...message });
      });
    const run = this.queue.then(send, send);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private onReply(reply: WorkerReply): void {
    const p = this.pending.get(reply.id);
    if (!p) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker?.unref();
    if (reply.error !== undefined) p.reject(new Error(reply.error));
    else p.resolve(reply);
  }

  private onWorkerGone(worker: Worker, err: Error): void {
    if (this.worker === worker) this.reset(err);
  }
}

/** The process-wide instance every LanguageDetector shares (the model is stateless). */
export const guesslangModel = new GuesslangModel();
