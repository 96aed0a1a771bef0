// node-llama-cpp in a child process of Trove: the optional native package is loaded here
// only, lazily (ESM, dynamic import), and a native crash or an out-of-memory ends this
// process, not the service. Protocol (IPC messages):
//   → {id, op: 'load'|'unload'|'chat'|'embed'|'abort', ...}
//   ← {id, chunk} while chatting, then {id, ok: true, result} or {id, ok: false, error, missing?}
let lib = null;
let llama = null;
const models = new Map();
const running = new Map();

async function library() {
  if (!lib) {
    try {
      lib = await import('node-llama-cpp');
    } catch (error) {
      const e = new Error(`the optional package node-llama-cpp is not installed (${error.message})`);
      e.missing = true;
      throw e;
    }
  }
  llama ??= await lib.getLlama({ gpu: false, build: 'never', progressLogs: false });
  return lib;
}

async function model(file) {
  await library();
  let entry = models.get(file);
  if (!entry) {
    entry = llama.loadModel({ modelPath: file });
    models.set(file, entry);
    entry.catch(() => models.delete(file));
  }
  return entry;
}

const ops = {
  async load({ file }) {
    await model(file);
    return null;
  },
  async unload({ file }) {
    const entry = models.get(file);
    if (!entry) return null;
    models.delete(file);
    const m = await entry.catch(() => null);
    await m?.dispose();
    return null;
  },
  async chat({ id, file, messages, maxTokens, temperature }) {
    const { LlamaChatSession } = await library();
    const m = await model(file);
    const context = await m.createContext({ contextSize: Math.min(4096, m.trainContextSize ?? 4096) });
    const controller = new AbortController();
    running.set(id, controller);
    try {
      const session = new LlamaChatSession({ contextSequence: context.getSequence() });
      const history = messages
        .slice(0, -1)
        .map((msg) =>
          msg.role === 'system'
            ? { type: 'system', text: msg.content }
            : msg.role === 'user'
              ? { type: 'user', text: msg.content }
              : { type: 'model', response: [msg.content] },
        );
      if (history.length) session.setChatHistory(history);
      await session.prompt(messages[messages.length - 1]?.content ?? '', {
        maxTokens: maxTokens ?? 512,
        temperature,
        signal: controller.signal,
        stopOnAbortSignal: true,
        onTextChunk: (chunk) => process.send({ id, chunk }),
      });
      return null;
    } finally {
      running.delete(id);
      await context.dispose();
    }
  },
  async embed({ file, texts }) {
    const m = await model(file);
    const context = await m.createEmbeddingContext();
    try {
      const out = [];
      for (const text of texts) out.push([...(await context.getEmbeddingFor(text)).vector]);
      return out;
    } finally {
      await context.dispose();
    }
  },
  async abort({ target }) {
    running.get(target)?.abort();
    return null;
  },
};

process.on('message', async (message) => {
  const { id, op } = message;
  try {
    const result = await ops[op](message);
    process.send({ id, ok: true, result });
  } catch (error) {
    process.send({ id, ok: false, error: String(error?.message ?? error), missing: Boolean(error?.missing) });
  }
});
process.on('disconnect', () => process.exit(0));
