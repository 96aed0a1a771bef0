import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from './common/config/app-config';
import { TROVE_VERSION } from './version';
import { ModelRegistry } from './modules/models/model-registry';
import { WebAssets } from './modules/applets/web-assets';

/** How long the banner waits for the default model's provider to say what it serves. */
const MODEL_WAIT_MS = 2000;

/** The few lines `npm start` prints once Trove listens: where to go, where the data lives, which models answer. */
export async function startBanner(app: NestFastifyApplication, config: AppConfig, port: number): Promise<string> {
  const host = ['0.0.0.0', '::', ''].includes(config.host)
    ? 'localhost'
    : config.host.includes(':')
      ? `[${config.host}]`
      : config.host;
  const base = `http://${host}:${port}`;
  const web = app.get(WebAssets, { strict: false }) ? `${base}/` : `${base}/ (not built: run npm run build:web)`;
  const storage = config.dialect === 'sqlite' ? `${config.sqlitePath} (SQLite)` : 'PostgreSQL (DATABASE_URL)';
  const models = await answeringModels(app.get(ModelRegistry, { strict: false }));
  return [
    `Trove ${TROVE_VERSION} listening on ${base}`,
    `  app      ${web}`,
    `  API      ${base}/docs`,
    `  MCP      ${base}/model_context_protocol/2025-03-26/mcp`,
    `  data     ${storage}`,
    `  models   ${models}`,
    ...(config.apiKeys.length ? ['  keys     API keys required (TROVE_API_KEYS): the app asks for one'] : []),
  ].join('\n');
}

async function answeringModels(registry: ModelRegistry): Promise<string> {
  const providers = registry.providers.map((p) => p.label).join(', ');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('its provider did not answer in time')), MODEL_WAIT_MS);
  });
  try {
    const model = await Promise.race([registry.resolve(), timeout]);
    const offline = model.offline
      ? ': it quotes the best passages and generates no text (docs/MODELS.md: Ollama, OpenAI-compatible, GGUF)'
      : '';
    return `${model.name} answers by default${offline}; providers: ${providers}`;
  } catch (error) {
    return `the default model cannot answer now (${(error as Error).message}); providers: ${providers}`;
  } finally {
    clearTimeout(timer);
  }
}
