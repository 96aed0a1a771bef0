import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InvalidInput, NotFound } from '../../../common/errors/domain-errors';
import { derivedId } from '../../../common/wire/derived-id';
import { CLIENT_LOCAL_MODELS, CLIENT_MODELS, CLIENT_MODEL_NAMESPACE } from '../client-models';
import { ModelDownloads } from '../model-downloads';
import { ModelRegistry, ModelView } from '../model-registry';
import { ModelUnitOfWork } from '../model-unit-of-work';
import { ModelWire, modelWire } from '../wire/model.wire';

/**
 * POST /model/{model}/download (Pieces for Sublime's "Click to Download", the SDK examples): a
 * model that is not on this machine yet is pulled by the provider that can download it (Ollama)
 * in the background; the answer is the model with `downloading: true`, and
 * `/model/{model}/download/progress` follows it. A model already downloaded is answered as it
 * is; a download under way is joined. A model nothing here can download (a cloud model, the
 * offline engine, a GGUF file, a provider without downloads) is a 400 that says why. The model
 * is announced on /models/stream/identifiers when the download starts and when it ends.
 */
export class DownloadModelCommand extends Command<ModelWire> {
  constructor(readonly modelId: string) {
    super();
  }
}

@CommandHandler(DownloadModelCommand)
export class DownloadModelHandler implements ICommandHandler<DownloadModelCommand> {
  constructor(
    private readonly registry: ModelRegistry,
    private readonly downloads: ModelDownloads,
    private readonly uow: ModelUnitOfWork,
  ) {}

  async execute({ modelId }: DownloadModelCommand): Promise<ModelWire> {
    const id = modelId.toLowerCase();
    const view = (await this.registry.list()).find((v) => v.id === id);
    if (!view) {
      // A local model the clients download, under its id with Ollama, while none is configured.
      const local = CLIENT_LOCAL_MODELS.find(([unique]) => derivedId('ollama', unique) === id);
      if (local)
        throw new InvalidInput(
          `${local[1]} (${local[0]}) is downloaded through Ollama, and none is configured: nothing here can download it (set TROVE_OLLAMA_URL)`,
        );
      throw new NotFound(`model ${id} not found (GET /models lists the models)`);
    }
    if (view.downloaded || view.downloading) return modelWire(view);
    const provider = CLIENT_MODELS.some((m) => derivedId(CLIENT_MODEL_NAMESPACE, m.unique) === id)
      ? undefined
      : this.registry.provider(view.provider);
    if (!provider?.pull)
      throw new InvalidInput(cannotDownload(view, id, this.registry.provider('ollama') !== undefined));
    this.downloads.start(id, provider as typeof provider & Required<Pick<typeof provider, 'pull'>>, view.unique, () =>
      this.announce(id),
    );
    await this.announce(id);
    return modelWire({ ...view, downloading: true });
  }

  /** The model changed (downloading, downloaded): its identifiers stream says so. */
  private async announce(id: string): Promise<void> {
    await this.uow.run(async ({ changed }) => changed({ id }));
  }
}

/** POST /model/{model}/download/cancel: aborts the download under way (the pull stops); the model as it is now. */
export class CancelModelDownloadCommand extends Command<ModelWire> {
  constructor(readonly modelId: string) {
    super();
  }
}

@CommandHandler(CancelModelDownloadCommand)
export class CancelModelDownloadHandler implements ICommandHandler<CancelModelDownloadCommand> {
  constructor(
    private readonly registry: ModelRegistry,
    private readonly downloads: ModelDownloads,
  ) {}

  async execute({ modelId }: CancelModelDownloadCommand): Promise<ModelWire> {
    const id = modelId.toLowerCase();
    const view = await findModel(this.registry, id);
    // The download ends CANCELED on its own turn; the answer already says it is not downloading.
    this.downloads.cancel(id);
    return modelWire({ ...view, downloading: false });
  }
}

async function findModel(registry: ModelRegistry, id: string): Promise<ModelView> {
  const view = (await registry.list()).find((v) => v.id === id);
  if (!view) throw new NotFound(`model ${id} not found (GET /models lists the models)`);
  return view;
}

/** Why nothing here can download the model, in one sentence. */
function cannotDownload(view: ModelView, id: string, ollama: boolean): string {
  const how = ollama ? '' : ' (set TROVE_OLLAMA_URL to download local models through Ollama)';
  if (CLIENT_MODELS.some((m) => derivedId(CLIENT_MODEL_NAMESPACE, m.unique) === id) || view.cloud) {
    return `${view.name} is a cloud model (${view.unique}), not a file this machine can download; nothing here can download it${how}`;
  }
  if (view.provider === 'llama_cpp')
    return `${view.name} is a GGUF file given in TROVE_GGUF_PATHS: Trove downloads no files, it runs the ones you point at`;
  return `${view.name} cannot be downloaded here: its provider (${view.provider}) has no downloads${how}`;
}
