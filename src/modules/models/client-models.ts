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
    source: "it is the Pieces CLI's default auto-commit model, which the CLI looks up by unique and stops at start without",
  },
  {
    unique: 'gpt-3.5-turbo',
    name: 'GPT-3.5-turbo Chat Model',
    source: 'it is the default chat model of the Pieces CLI and Python SDK, looked up by name until the user picks another',
  },
];

/** The namespace of the stable ids of client models (see modelId). */
export const CLIENT_MODEL_NAMESPACE = 'pieces';
