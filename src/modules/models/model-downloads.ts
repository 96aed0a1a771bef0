import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { ModelProvider, PullProgress } from '../intelligence/providers/model-provider';

/** ModelDownloadProgress, as `/model/{model}/download/progress` sends it. */
export interface ModelDownloadProgressWire {
  /** ModelDownloadProgressStatusEnum: IN-PROGRESS, COMPLETED, FAILED, CANCELED; UNKNOWN when nothing was asked. */
  status: 'UNKNOWN' | 'IN-PROGRESS' | 'COMPLETED' | 'FAILED' | 'CANCELED';
  /** 0-100 while in progress (and 100 once completed); null otherwise. */
  percentage: number | null;
}

type Listener = (frame: ModelDownloadProgressWire) => void;

interface Running {
  abort: AbortController;
  percentage: number;
  /** Bytes of each layer seen so far: the percentage is over every layer announced. */
  layers: Map<string, { total: number; completed: number }>;
}

/** Frames are sent when the whole percentage moves by at least this much (Ollama reports every few KB). */
const STEP = 1;

/**
 * The model downloads of this instance (POST /model/{model}/download): each runs the provider's
 * pull (Ollama's) in the background, turns its progress into ModelDownloadProgress frames for the
 * download's listeners (the progress WebSocket), and can be cancelled, which aborts the pull.
 * State is this process's: a download asked of one instance is followed on that instance.
 */
@Injectable()
export class ModelDownloads implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Models');
  private readonly running = new Map<string, Running>();
  /** How the last download of each model ended (what a socket opened afterwards is told). */
  private readonly ended = new Map<string, ModelDownloadProgressWire>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private stopping = false;
  /** Every download until its end is announced (shutdown waits for them before the database closes). */
  private readonly inflight = new Set<Promise<void>>();

  isDownloading(id: string): boolean {
    return this.running.has(id);
  }

  /** The download's state now: IN-PROGRESS with its percentage, how the last one ended, or UNKNOWN. */
  progress(id: string): ModelDownloadProgressWire {
    const run = this.running.get(id);
    if (run) return { status: 'IN-PROGRESS', percentage: run.percentage };
    return this.ended.get(id) ?? { status: 'UNKNOWN', percentage: null };
  }

  /** Calls `listener` with every frame of the model's downloads from now on; returns the unsubscription. */
  subscribe(id: string, listener: Listener): () => void {
    let set = this.listeners.get(id);
    if (!set) this.listeners.set(id, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (!set.size && this.listeners.get(id) === set) this.listeners.delete(id);
    };
  }

  /**
   * Starts pulling `unique` through `provider` for the model `id` (a second call while it runs
   * joins it). `settled` is called once it has ended, whichever way, after its last frame (not
   * when the app is shutting down: nothing is announced then); its failure is logged.
   */
  start(
    id: string,
    provider: ModelProvider & Required<Pick<ModelProvider, 'pull'>>,
    unique: string,
    settled: () => Promise<void>,
  ): void {
    if (this.running.has(id) || this.stopping) return;
    const run: Running = { abort: new AbortController(), percentage: 0, layers: new Map() };
    this.running.set(id, run);
    this.ended.delete(id);
    this.emit(id, { status: 'IN-PROGRESS', percentage: 0 });
    const done = (async () => {
      let end: ModelDownloadProgressWire;
      try {
        for await (const step of provider.pull(unique, run.abort.signal)) this.step(id, run, step);
        end = { status: 'COMPLETED', percentage: 100 };
        this.logger.log(`downloaded ${unique} through ${provider.label}`);
      } catch (error) {
        if (run.abort.signal.aborted) {
          end = { status: 'CANCELED', percentage: null };
          this.logger.log(`download of ${unique} cancelled`);
        } else {
          end = { status: 'FAILED', percentage: null };
          this.logger.warn(`download of ${unique} through ${provider.label} failed: ${(error as Error).message}`);
        }
      }
      this.running.delete(id);
      this.ended.set(id, end);
      this.emit(id, end);
      if (!this.stopping)
        await settled().catch((error: Error) =>
          this.logger.warn(`announcing the end of the download of ${unique} failed: ${error.message}`),
        );
    })();
    this.inflight.add(done);
    void done.finally(() => this.inflight.delete(done));
  }

  /** Aborts the model's download; false when none runs. */
  cancel(id: string): boolean {
    const run = this.running.get(id);
    if (!run) return false;
    run.abort.abort();
    return true;
  }

  /** Downloads do not outlive the app: each is aborted (and ends CANCELED) before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const run of this.running.values()) run.abort.abort();
    await Promise.all(this.inflight);
  }

  private step(id: string, run: Running, step: PullProgress): void {
    if (step.digest && typeof step.total === 'number' && step.total > 0) {
      run.layers.set(step.digest, {
        total: step.total,
        completed: Math.min(step.total, Math.max(0, step.completed ?? 0)),
      });
    }
    let total = 0;
    let completed = 0;
    for (const layer of run.layers.values()) {
      total += layer.total;
      completed += layer.completed;
    }
    // 100 is for the provider's success, not for the last byte of the last layer.
    const percentage = total ? Math.min(99, Math.floor((completed / total) * 100)) : 0;
    if (percentage >= run.percentage + STEP) {
      run.percentage = percentage;
      this.emit(id, { status: 'IN-PROGRESS', percentage });
    }
  }

  private emit(id: string, frame: ModelDownloadProgressWire): void {
    for (const listener of this.listeners.get(id) ?? []) {
      try {
        listener(frame);
      } catch (error) {
        this.logger.debug(`a download listener failed: ${(error as Error).message}`);
      }
    }
  }
}
