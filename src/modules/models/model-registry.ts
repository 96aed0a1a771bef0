import { isUUID } from 'class-validator';
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AppConfig } from '../../common/config/app-config';
import { InvalidInput, NotFound } from '../../common/errors/domain-errors';
import {
  DiscoveredModel,
  MODEL_PROVIDERS,
  ModelProvider,
  ProviderKind,
} from '../intelligence/providers/model-provider';
import { OFFLINE_NAME, OFFLINE_UNIQUE } from '../intelligence/providers/offline.provider';
import { CLIENT_LOCAL_MODELS, CLIENT_MODELS, CLIENT_MODEL_NAMESPACE, ClientModel } from './client-models';
import { ModelDownloads } from './model-downloads';
import { derivedId } from '../../common/wire/derived-id';
import { ModelEntity } from './model.entity';
import { ModelStore } from './model.store';

/** Generation parameters of a custom model. */
interface ModelParameters {
  temperature?: number;
  maxTokens?: number;
}

/** A model as GET /models shows it: what the provider says now plus what Trove recorded. */
export interface ModelView extends DiscoveredModel {
  id: string;
  provider: ProviderKind;
  description: string;
  custom: boolean;
  created: string;
  /** Descriptive fields a custom model was created with (version, type, foundation, ...). */
  seed: Record<string, unknown>;
  baseModelId: string | null;
  systemPrompt: string | null;
  generation: ModelParameters;
  /** A download of it runs in this instance (POST /model/{model}/download). */
  downloading?: boolean;
}

/** What a request needs to run a model. */
export interface ResolvedModel {
  id: string;
  name: string;
  provider: ModelProvider;
  unique: string;
  offline: boolean;
  systemPrompt: string | null;
  generation: ModelParameters;
  /**
   * The model the request named, when another one answers in its place (a client model no
   * configured provider serves, answered by the default model): answers say so.
   */
  standsInFor?: string;
}

/** The row a provider's model is recorded as on first sight (its id derived from provider and name). */
function discoveredRow(kind: ProviderKind, model: DiscoveredModel): Omit<ModelEntity, 'createdAt' | 'updatedAt'> {
  return {
    id: derivedId(kind, model.unique),
    provider: kind,
    unique: model.unique,
    name: model.name,
    custom: false,
    baseModelId: null,
    systemPrompt: null,
    parameters: null,
    seed: '{}',
    fingerprint: `discovered:${createHash('sha256').update(`${kind}:${model.unique}`).digest('hex')}`,
  };
}

/**
 * The models of every configured provider (the offline engine always first) plus the
 * custom ones, and the resolution of a request's `model` (an id, `provider:name`, a
 * provider's model name, or `offline`) to a provider. Writes go through ModelStore.
 */
@Injectable()
export class ModelRegistry implements OnApplicationShutdown {
  private readonly logger = new Logger('Models');
  private readonly byKind: Map<ProviderKind, ModelProvider>;

  constructor(
    @Inject(MODEL_PROVIDERS) readonly providers: ModelProvider[],
    private readonly store: ModelStore,
    private readonly config: AppConfig,
    private readonly downloads: ModelDownloads,
  ) {
    this.byKind = new Map(providers.map((p) => [p.kind, p]));
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.providers.map((p) => p.close?.()));
  }

  provider(kind: string): ModelProvider | undefined {
    return this.byKind.get(kind as ProviderKind);
  }

  get offlineId(): string {
    return derivedId('offline', OFFLINE_UNIQUE);
  }

  /** Every model: discovered ones of reachable providers, then custom ones. A provider that is down is left out (and logged). */
  async list(): Promise<ModelView[]> {
    const down = new Set<ProviderKind>();
    const views = await this.discovered(down);
    const byId = new Map(views.map((v) => [v.id, v]));
    const customs = (await this.store.all())
      .filter((r) => r.custom)
      .map((row) =>
        this.customView(
          row,
          row.baseModelId
            ? byId.get(row.baseModelId)
            : views.find((v) => v.provider === row.provider && v.unique === row.unique),
        ),
      );
    // The models the official clients name come right after the offline engine, so that a
    // client picking the first match by `unique` always gets the stable id.
    const clients = await this.clientViews(views, customs);
    const downloadable = down.has('ollama') ? [] : await this.downloadableViews(views);
    return [views[0], ...clients, ...views.slice(1), ...downloadable, ...customs].map((v) =>
      this.downloads.isDownloading(v.id) ? { ...v, downloading: true } : v,
    );
  }

  /**
   * With Ollama configured (and answering): the local models the clients offer to download (CLIENT_LOCAL_MODELS)
   * that Ollama does not have yet, not downloaded, each under the id of the Ollama model it
   * becomes once pulled (recorded as that model is, so the id stays when it is downloaded).
   */
  private async downloadableViews(discovered: ModelView[]): Promise<ModelView[]> {
    if (!this.byKind.has('ollama')) return [];
    const have = new Set(discovered.filter((v) => v.provider === 'ollama').map((v) => v.unique));
    const wanted: DiscoveredModel[] = CLIENT_LOCAL_MODELS.filter(([unique]) => !have.has(unique)).map(
      ([unique, name]) => ({
        unique,
        name,
        loaded: false,
        downloaded: false,
        cloud: false,
        embedding: false,
        description: `${name}, not downloaded yet: POST /model/{id}/download pulls ${unique} through ${this.byKind.get('ollama')!.label}`,
      }),
    );
    const rows = await this.store.recordDiscovered(wanted.map((model) => discoveredRow('ollama', model)));
    return wanted.map((model) =>
      this.discoveredView(
        'ollama',
        model,
        rows.get(derivedId('ollama', model.unique))?.createdAt ?? new Date(0).toISOString(),
      ),
    );
  }

  /**
   * What every reachable provider lists now (the offline engine first); a provider that is down
   * is logged, left out and added to `down` when given.
   */
  private async listed(down?: Set<ProviderKind>): Promise<Array<{ kind: ProviderKind; model: DiscoveredModel }>> {
    const listed = await Promise.all(
      this.providers.map(async (p) => {
        try {
          return { p, models: await p.list() };
        } catch (error) {
          this.logger.warn(`${p.label}: cannot list models (${(error as Error).message})`);
          down?.add(p.kind);
          return { p, models: [] };
        }
      }),
    );
    return listed.flatMap(({ p, models }) => models.map((model) => ({ kind: p.kind, model })));
  }

  /** The models of every reachable provider (the offline engine first), recorded on first sight. */
  private async discovered(down?: Set<ProviderKind>): Promise<ModelView[]> {
    const discovered = await this.listed(down);
    const rows = await this.store.recordDiscovered(discovered.map(({ kind, model }) => discoveredRow(kind, model)));
    return discovered.map(({ kind, model }) => {
      const id = derivedId(kind, model.unique);
      return this.discoveredView(kind, model, rows.get(id)?.createdAt ?? new Date(0).toISOString());
    });
  }

  private discoveredView(kind: ProviderKind, model: DiscoveredModel, created: string): ModelView {
    return {
      id: derivedId(kind, model.unique),
      provider: kind,
      unique: model.unique,
      name: model.name,
      description: model.description ?? model.name,
      custom: false,
      loaded: model.loaded,
      downloaded: model.downloaded,
      cloud: model.cloud,
      embedding: model.embedding,
      bytes: model.bytes,
      maxTokens: model.maxTokens,
      parameters: model.parameters,
      quantization: model.quantization,
      created,
      seed: {},
      baseModelId: null,
      systemPrompt: null,
      generation: {},
    };
  }

  /**
   * The models the official clients name (CLIENT_MODELS), each under its own stable id: the
   * provider model of the same `unique` when one is configured, else the configured default
   * model answers, which the description says; the flags are those of whichever runs.
   */
  private async clientViews(discovered: ModelView[], customs: ModelView[]): Promise<ModelView[]> {
    const rows = await this.store.recordDiscovered(
      CLIENT_MODELS.map((m) => ({
        id: this.clientModelId(m),
        provider: CLIENT_MODEL_NAMESPACE,
        unique: m.unique,
        name: m.name,
        custom: false,
        baseModelId: null,
        systemPrompt: null,
        parameters: null,
        seed: '{}',
        fingerprint: `client:${m.unique}`,
      })),
    );
    // A default model that cannot be resolved now (its provider is down, a deleted custom model)
    // fails the requests that need it, with the reason; the listing still answers.
    const fallback = await this.fallback().catch((error: Error) => error);
    const fallbackView =
      (!(fallback instanceof Error) && [...discovered, ...customs].find((v) => v.id === fallback.id)) || discovered[0];
    const answeredBy =
      fallback instanceof Error
        ? `the configured default model (${this.config.defaultModel}), which cannot answer now: ${fallback.message}`
        : `${fallback.name}, the configured default model`;
    return CLIENT_MODELS.map((m) => {
      const served = this.servedBy(m, discovered);
      const runs = served ?? fallbackView;
      const description = served
        ? `${m.name}, served here by ${this.byKind.get(served.provider)!.label} (its model ${served.unique}). Listed because ${m.source}.`
        : `Not served here: no configured provider offers ${m.unique}, so requests naming this model are answered by ${answeredBy}, and the answer says so. ` +
          `Listed because ${m.source}. To run the real model, point TROVE_OPENAI_URL at an OpenAI-compatible gateway that serves ${m.unique}.`;
      return {
        ...runs,
        id: this.clientModelId(m),
        unique: m.unique,
        name: m.name,
        description,
        custom: false,
        created: rows.get(this.clientModelId(m))?.createdAt ?? new Date(0).toISOString(),
        seed: {},
        baseModelId: null,
        systemPrompt: null,
        generation: {},
      };
    });
  }

  private clientModelId(m: ClientModel): string {
    return derivedId(CLIENT_MODEL_NAMESPACE, m.unique);
  }

  /** The provider model (not the offline engine's) whose `unique` is the client model's. */
  private servedBy<V extends Pick<ModelView, 'provider' | 'unique' | 'embedding' | 'custom'>>(
    m: ClientModel,
    views: V[],
  ): V | undefined {
    return views.find((v) => !v.custom && v.provider !== 'offline' && !v.embedding && v.unique === m.unique);
  }

  /** The configured default model, or the offline engine when the default is itself an unserved client model. */
  private async fallback(): Promise<ResolvedModel> {
    const wanted = this.config.defaultModel;
    const named = CLIENT_MODELS.some(
      (m) => m.unique === wanted || m.name === wanted || this.clientModelId(m) === wanted.toLowerCase(),
    );
    return named ? this.offline() : this.resolve(wanted);
  }

  private customView(row: ModelEntity, base: ModelView | undefined): ModelView {
    const seed = JSON.parse(row.seed) as Record<string, unknown>;
    return {
      id: row.id,
      provider: row.provider as ProviderKind,
      unique: row.unique,
      name: row.name,
      description: (seed.description as string | undefined) ?? `Custom model on ${base?.name ?? row.unique}`,
      custom: true,
      loaded: base?.loaded ?? false,
      downloaded: base?.downloaded ?? false,
      cloud: base?.cloud ?? (seed.cloud as boolean | undefined) ?? false,
      embedding: base?.embedding ?? false,
      bytes: base?.bytes,
      maxTokens: base?.maxTokens,
      parameters: base?.parameters,
      quantization: base?.quantization,
      created: row.createdAt,
      seed,
      baseModelId: row.baseModelId,
      systemPrompt: row.systemPrompt,
      generation: row.parameters ? (JSON.parse(row.parameters) as ModelParameters) : {},
    };
  }

  /** The model a request names, or the configured default. Unknown models are a 404. */
  async resolve(ref?: string | null): Promise<ResolvedModel> {
    const wanted = ref?.trim() || this.config.defaultModel;
    if (wanted === 'offline' || wanted === `offline:${OFFLINE_UNIQUE}` || wanted === this.offlineId)
      return this.offline();
    const client = CLIENT_MODELS.find(
      (m) => this.clientModelId(m) === wanted.toLowerCase() || m.name === wanted || m.unique === wanted,
    );
    if (client) return this.resolveClientModel(client);
    if (isUUID(wanted)) {
      const row = await this.store.one(wanted.toLowerCase());
      if (!row) throw new NotFound(`model ${wanted} not found (GET /models lists the models)`);
      if (!row.custom) return this.direct(row.provider, row.unique, row.id, row.name);
      const base = row.baseModelId
        ? await this.resolve(row.baseModelId)
        : this.direct(row.provider, row.unique, row.id, row.name);
      return {
        ...base,
        id: row.id,
        name: row.name,
        systemPrompt: row.systemPrompt ?? base.systemPrompt,
        generation: { ...base.generation, ...(row.parameters ? (JSON.parse(row.parameters) as ModelParameters) : {}) },
      };
    }
    const colon = wanted.indexOf(':');
    const prefix = colon > 0 ? wanted.slice(0, colon) : '';
    if (this.byKind.has(prefix as ProviderKind)) return this.direct(prefix, wanted.slice(colon + 1));
    const setting = { ollama: 'TROVE_OLLAMA_URL', openai: 'TROVE_OPENAI_URL', llama_cpp: 'TROVE_GGUF_PATHS' }[prefix];
    if (setting) throw new InvalidInput(`model provider ${prefix} is not configured (set ${setting})`);
    // A provider's own model name ("llama3.2:1b", "gpt-4o-mini"): whichever provider lists it
    // (listed, not recorded: resolving runs on every request that names a model).
    const match = (await this.listed()).find(({ model }) => model.unique === wanted || model.name === wanted);
    if (!match) throw new NotFound(`model "${wanted}" not found (GET /models lists the models)`);
    return this.direct(match.kind, match.model.unique, derivedId(match.kind, match.model.unique), match.model.name);
  }

  private offline(): ResolvedModel {
    return {
      id: this.offlineId,
      name: OFFLINE_NAME,
      provider: this.byKind.get('offline')!,
      unique: OFFLINE_UNIQUE,
      offline: true,
      systemPrompt: null,
      generation: {},
    };
  }

  /** A client model: the provider model of its `unique` when one is configured, else the default model standing in for it. */
  private async resolveClientModel(m: ClientModel): Promise<ResolvedModel> {
    const listed = this.providers.length > 1 ? await this.listed() : [];
    const served = this.servedBy(
      m,
      listed.map(({ kind, model }) => ({
        provider: kind,
        unique: model.unique,
        embedding: model.embedding,
        custom: false,
      })),
    );
    if (served) return this.direct(served.provider, m.unique, this.clientModelId(m), m.name);
    const fallback = await this.fallback();
    return { ...fallback, standsInFor: m.name };
  }

  private direct(kind: string, unique: string, id?: string, name?: string): ResolvedModel {
    const provider = this.byKind.get(kind as ProviderKind);
    if (!provider) throw new InvalidInput(`model provider ${kind} is not configured`);
    if (kind === 'offline') return this.offline();
    return {
      id: id ?? derivedId(kind, unique),
      name: name ?? unique,
      provider,
      unique,
      offline: false,
      systemPrompt: null,
      generation: {},
    };
  }
}
