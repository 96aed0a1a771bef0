/**
 * Models the official Pieces clients ask for by a fixed name or `unique`, whatever the server
 * offers: without them the clients stop before their first command. Each is listed by GET
 * /models under the name the clients expect and a stable id; a request naming one runs on a
 * configured provider that serves that model, else on the configured default model, and says so
 * (ModelRegistry). Found by reading the clients; add a row when a client starts naming another.
 */
export interface ClientModel {
  /** The provider's model name the clients select by (`Model.unique`). */
  unique: string;
  /** The display name the clients show and select by. */
  name: string;
  /** Why it is listed: which client needs it and how it picks it (a clause after "because"). */
  source: string;
}

export const CLIENT_MODELS: readonly ClientModel[] = [
  {
    unique: 'gemini-2.0-flash-lite-001',
    name: 'Gemini 2.0 Flash Lite Chat Model',
    source:
      "it is the Pieces CLI's default auto-commit model, which the CLI looks up by unique and stops at start without",
  },
  {
    unique: 'gpt-3.5-turbo',
    name: 'GPT-3.5-turbo Chat Model',
    source:
      'it is the default chat model of the Pieces CLI and Python SDK, looked up by name until the user picks another',
  },
  {
    unique: 'gpt-4o',
    name: 'GPT-4o Chat Model',
    source:
      'it is the default chat model of the Pieces Neovim plugin (looked up by name at start; without it the plugin stops with "Not a valid model name"), ' +
      'of the C# SDK (the first model whose name contains "GPT-4o Chat") and Sublime\'s fallback',
  },
  {
    unique: 'o4-mini-2025-04-16',
    name: 'o4-mini Chat Model',
    source:
      "it is Pieces for Sublime's default model, looked up by unique at start (Sublime fails to start its copilot without it)",
  },
];

/**
 * The local models Pieces for Sublime offers to download (its model list, by `unique`; each is a
 * tag of Ollama's library). With Ollama configured, GET /models lists each one Ollama does not
 * have yet as not downloaded, under the id it will keep once pulled (the Ollama model's), and
 * POST /model/{id}/download pulls it through Ollama. Without Ollama they are not listed.
 */
export const CLIENT_LOCAL_MODELS: ReadonlyArray<readonly [unique: string, name: string]> = [
  ['phi:2.7b-chat-v2-q4_K_S', 'Phi-2'],
  ['phi3:3.8b-mini-4k-instruct-q4_K_S', 'Phi-3 Mini 4K'],
  ['phi3:3.8b-mini-128k-instruct-q4_K_S', 'Phi-3 Mini 128K'],
  ['phi3:14b-medium-4k-instruct-q4_K_S', 'Phi-3 Medium 14B 4K'],
  ['phi3:14b-medium-128k-instruct-q4_K_S', 'Phi-3 Medium 14B 128K'],
  ['phi3.5:3.8b-mini-instruct-q4_K_S', 'Phi-3.5 Mini 3.8B'],
  ['phi4:14b-q4_K_M', 'Phi-4 14B'],
  ['mistral:7b-instruct-q4_K_S', 'Mistral 7B'],
  ['mixtral:8x7b-instruct-v0.1-q4_K_S', 'Mixtral 8x7B'],
  ['llama2:7b-chat-q4_K_S', 'Llama 2 7B'],
  ['llama2:13b-chat-q4_K_S', 'Llama 2 13B'],
  ['llama3.1:8b-instruct-q4_K_S', 'Llama 3.1 8B'],
  ['llama3.2:1b-instruct-q4_K_S', 'Llama 3.2 1B'],
  ['llama3.2:3b-instruct-q4_K_S', 'Llama 3.2 3B'],
  ['codellama:7b-instruct-q4_K_S', 'CodeLlama 7B'],
  ['codellama:13b-instruct-q4_K_S', 'CodeLlama 13B'],
  ['codellama:34b-instruct-q4_K_S', 'CodeLlama 34B'],
  ['gemma:2b-instruct-q4_K_S', 'Gemma 1.1 2B'],
  ['gemma:7b-instruct-q4_K_S', 'Gemma 1.1 7B'],
  ['codegemma:7b-code-q4_K_S', 'Code Gemma 1.1 7B'],
  ['gemma2:2b-instruct-q4_K_S', 'Gemma 2 2B'],
  ['gemma2:9b-instruct-q4_K_S', 'Gemma 2 9B'],
  ['gemma2:27b-instruct-q4_K_S', 'Gemma 2 27B'],
  ['granite-code:3b-instruct-q4_K_S', 'Granite Code 3B'],
  ['granite-code:8b-instruct-q4_K_S', 'Granite Code 8B'],
  ['granite-code:3b-instruct-128k-q4_K_S', 'Granite Code 3B 128K'],
  ['granite-code:20b-instruct-q4_K_S', 'Granite Code 20B'],
  ['granite-code:34b-instruct-q4_K_S', 'Granite Code 34B'],
  ['granite3-dense:2b-instruct-q4_K_S', 'Granite 3 Dense 2B'],
  ['granite3-dense:8b-instruct-q4_K_S', 'Granite 3 Dense 8B'],
  ['granite3-moe:1b-instruct-q4_K_S', 'Granite 3 MoE 1B'],
  ['granite3-moe:3b-instruct-q4_K_S', 'Granite 3 MoE 3B'],
  ['granite3.1-dense:2b-instruct-q4_K_S', 'Granite 3.1 Dense 2B'],
  ['granite3.1-dense:8b-instruct-q4_K_S', 'Granite 3.1 Dense 8B'],
  ['qwen2.5-coder:0.5b-instruct-q4_K_S', 'Qwen 2.5 Coder 0.5B'],
  ['qwen2.5-coder:1.5b-instruct-q4_K_S', 'Qwen 2.5 Coder 1.5B'],
  ['qwen2.5-coder:3b-instruct-q4_K_S', 'Qwen 2.5 Coder 3B'],
  ['qwen2.5-coder:7b-instruct-q4_K_S', 'Qwen 2.5 Coder 7B'],
  ['qwen2.5-coder:14b-instruct-q4_K_S', 'Qwen 2.5 Coder 14B'],
  ['qwen2.5-coder:32b-instruct-q4_K_S', 'Qwen 2.5 Coder 32B'],
  ['qwq:32b-preview-q4_K_M', 'Qwen QwQ Preview 32B'],
  ['deepseek-r1:32b-qwen-distill-q4_K_M', 'DeepSeek R1 32B'],
  ['deepseek-r1:14b-qwen-distill-q4_K_M', 'DeepSeek R1 14B'],
  ['deepseek-r1:8b-llama-distill-q4_K_M', 'DeepSeek R1 8B'],
  ['deepseek-r1:7b-qwen-distill-q4_K_M', 'DeepSeek R1 7B'],
  ['deepseek-r1:1.5b-qwen-distill-q4_K_M', 'DeepSeek R1 1.5B'],
  ['starcoder2:15b-instruct-v0.1-q4_K_S', 'StarCoder 2 15B'],
];

/** The namespace of the stable ids of client models (see modelId). */
export const CLIENT_MODEL_NAMESPACE = 'pieces';
