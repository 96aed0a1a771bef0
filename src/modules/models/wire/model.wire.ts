import { ByteDescriptor, GroupedTimestamp, byteDescriptor, groupedTimestamp } from '../../../common/wire/common.wire';
import { OFFLINE_UNIQUE } from '../../intelligence/providers/offline.provider';
import { ModelView } from '../model-registry';

export class ModelMaxTokensWire {
  total: number | null;
  input?: number | null;
  output?: number | null;
}

export class ModelWire {
  id: string;
  version: string;
  created: GroupedTimestamp;
  name: string;
  description: string;
  cloud: boolean;
  /** ModelTypeEnum. */
  type: string;
  /** ModelUsageEnum: CODE_CONVERSATION for chat models, TEXT_EMBEDDING for embedding models. */
  usage: string;
  /** ModelFoundationEnum (UNKNOWN when the family is not one the enum names). */
  foundation: string;
  /** The provider's own name of the model. */
  unique: string;
  /** ExternalMLProviderEnum: who made the model (UNKNOWN when not known). */
  provider: string;
  downloaded: boolean;
  loaded: boolean;
  cpu: boolean;
  downloading: boolean;
  maxTokens: ModelMaxTokensWire;
  custom: boolean;
  bytes?: ByteDescriptor;
  parameters?: number | null;
  quantization?: string;
}

export class ModelsWire {
  iterable: ModelWire[];
}

export class ReferencedModelWire {
  id: string;
}

export class ModelDeleteCacheOutputWire {
  model: ReferencedModelWire;
}

const FOUNDATIONS: Array<[RegExp, string]> = [
  [/codellama/i, 'LLAMA_LATEST'],
  [/tinyllama/i, 'TINYLLAMA_LATEST'],
  [/llama[-_ ]?3[._-]?\d*.*\b8b/i, 'LLAMA_3_8B'],
  [/llama/i, 'LLAMA_LATEST'],
  [/mixtral/i, 'MIXTRAL_LATEST'],
  [/codestral/i, 'CODESTRAL_LATEST'],
  [/mistral/i, 'MISTRAL_LATEST'],
  [/qwq/i, 'QWQ_LATEST'],
  [/qwen.*coder/i, 'QWEN_CODER_LATEST'],
  [/qwen/i, 'QWEN_LATEST'],
  [/deepseek/i, 'DEEPSEEK_LATEST'],
  [/phi/i, 'PHI_LATEST'],
  [/gemma/i, 'GEMMA_LATEST'],
  [/gemini/i, 'GEMINI_LATEST'],
  [/granite/i, 'GRANITE_LATEST'],
  [/starcoder/i, 'STARCODER_LATEST'],
  [/llava/i, 'LLAVA_LATEST'],
  [/zephyr/i, 'ZEPHYR_LATEST'],
  [/vicuna/i, 'VICUNA_LATEST'],
  [/claude/i, 'CLAUDE_LATEST'],
  [/gpt-?4/i, 'GPT_4'],
  [/gpt-?3\.5/i, 'GPT_3.5'],
  [/gpt/i, 'GPT_LATEST'],
];
const MAKERS: Array<[RegExp, string]> = [
  [/llama/i, 'META'],
  [/gemma|gemini/i, 'GOOGLE'],
  [/phi/i, 'MICROSOFT'],
  [/gpt|o[134]-/i, 'OPENAI'],
  [/claude/i, 'ANTHROPIC'],
  [/granite/i, 'IBM'],
  [/starcoder/i, 'BIGCODE'],
  [/jina/i, 'JINA'],
];

const pick = (table: Array<[RegExp, string]>, name: string): string =>
  table.find(([re]) => re.test(name))?.[1] ?? 'UNKNOWN';

/** The complete Model object of a view (every field clients read is present, with its JSON type). */
export function modelWire(view: ModelView): ModelWire {
  const seed = view.seed as {
    version?: string;
    type?: string;
    foundation?: string;
    provider?: string;
    maxTokens?: { total?: number | null; input?: number | null; output?: number | null };
  };
  const family = `${view.unique} ${view.name}`;
  // The offline engine (and custom models on it) is no model family and has no maker.
  const engine = view.unique === OFFLINE_UNIQUE;
  const wire: ModelWire = {
    id: view.id,
    version: seed.version ?? '1.0',
    created: groupedTimestamp(view.created),
    name: view.name,
    description: view.description,
    cloud: view.cloud,
    type: seed.type ?? 'BALANCED',
    usage: view.embedding ? 'TEXT_EMBEDDING' : 'CODE_CONVERSATION',
    foundation: seed.foundation ?? (engine ? 'UNKNOWN' : pick(FOUNDATIONS, family)),
    unique: view.unique,
    provider: seed.provider ?? (engine ? 'UNKNOWN' : pick(MAKERS, family)),
    downloaded: view.downloaded,
    loaded: view.loaded,
    cpu: view.provider === 'offline' || view.provider === 'llama_cpp',
    downloading: view.downloading ?? false,
    maxTokens: {
      total: seed.maxTokens?.total ?? view.maxTokens ?? null,
      ...(seed.maxTokens?.input !== undefined ? { input: seed.maxTokens.input } : {}),
      ...(seed.maxTokens?.output !== undefined || view.generation.maxTokens
        ? { output: seed.maxTokens?.output ?? view.generation.maxTokens ?? null }
        : {}),
    },
    custom: view.custom,
  };
  if (view.bytes !== undefined) wire.bytes = byteDescriptor(view.bytes);
  if (view.parameters !== undefined && view.parameters !== null) wire.parameters = view.parameters;
  if (view.quantization) wire.quantization = view.quantization;
  return wire;
}
