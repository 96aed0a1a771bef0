import { writeFileSync } from 'node:fs';

/**
 * Writes a tiny, valid GGUF (v3) llama model: 1 layer, 16-dimensional embeddings, a
 * SentencePiece-style vocabulary of byte tokens plus a few words, F32 weights from a fixed
 * seed. It produces gibberish, but node-llama-cpp loads it and generates from it, which is
 * what the tests check (the code path, not the text).
 */
export function writeTinyGguf(path: string): void {
  const nEmbd = 16;
  const nHead = 2;
  const nFf = 32;
  const words = ['▁hello', '▁world', '▁the', '▁a', '▁is', '▁code'];
  const tokens = [
    '<unk>',
    '<s>',
    '</s>',
    ...Array.from({ length: 256 }, (_, i) => `<0x${i.toString(16).toUpperCase().padStart(2, '0')}>`),
    ...words,
  ];
  const types = [2, 3, 3, ...Array(256).fill(6), ...words.map(() => 1)];
  const scores = tokens.map((_, i) => (i < 259 ? 0 : -i));
  const nVocab = tokens.length;

  const chunks: Buffer[] = [];
  const u32 = (v: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    chunks.push(b);
  };
  const i32 = (v: number) => {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    chunks.push(b);
  };
  const u64 = (v: number) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    chunks.push(b);
  };
  const f32 = (v: number) => {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    chunks.push(b);
  };
  const str = (s: string) => {
    const b = Buffer.from(s, 'utf8');
    u64(b.length);
    chunks.push(b);
  };

  const kv: Array<[string, () => void]> = [];
  const kvU32 = (k: string, v: number) =>
    kv.push([
      k,
      () => {
        u32(4);
        u32(v);
      },
    ]);
  const kvF32 = (k: string, v: number) =>
    kv.push([
      k,
      () => {
        u32(6);
        f32(v);
      },
    ]);
  const kvStr = (k: string, v: string) =>
    kv.push([
      k,
      () => {
        u32(8);
        str(v);
      },
    ]);
  kvStr('general.architecture', 'llama');
  kvStr('general.name', 'trove-tiny-test');
  kvU32('general.alignment', 32);
  kvU32('llama.context_length', 2048);
  kvU32('llama.embedding_length', nEmbd);
  kvU32('llama.block_count', 1);
  kvU32('llama.feed_forward_length', nFf);
  kvU32('llama.attention.head_count', nHead);
  kvU32('llama.attention.head_count_kv', nHead);
  kvU32('llama.rope.dimension_count', nEmbd / nHead);
  kvF32('llama.attention.layer_norm_rms_epsilon', 1e-5);
  kvStr('tokenizer.ggml.model', 'llama');
  kv.push([
    'tokenizer.ggml.tokens',
    () => {
      u32(9);
      u32(8);
      u64(tokens.length);
      tokens.forEach(str);
    },
  ]);
  kv.push([
    'tokenizer.ggml.scores',
    () => {
      u32(9);
      u32(6);
      u64(scores.length);
      scores.forEach(f32);
    },
  ]);
  kv.push([
    'tokenizer.ggml.token_type',
    () => {
      u32(9);
      u32(5);
      u64(types.length);
      types.forEach(i32);
    },
  ]);
  kvU32('tokenizer.ggml.unknown_token_id', 0);
  kvU32('tokenizer.ggml.bos_token_id', 1);
  kvU32('tokenizer.ggml.eos_token_id', 2);

  const tensors: Array<[string, number[]]> = [
    ['token_embd.weight', [nEmbd, nVocab]],
    ['output_norm.weight', [nEmbd]],
    ['output.weight', [nEmbd, nVocab]],
    ['blk.0.attn_norm.weight', [nEmbd]],
    ['blk.0.attn_q.weight', [nEmbd, nEmbd]],
    ['blk.0.attn_k.weight', [nEmbd, nEmbd]],
    ['blk.0.attn_v.weight', [nEmbd, nEmbd]],
    ['blk.0.attn_output.weight', [nEmbd, nEmbd]],
    ['blk.0.ffn_norm.weight', [nEmbd]],
    ['blk.0.ffn_gate.weight', [nEmbd, nFf]],
    ['blk.0.ffn_up.weight', [nEmbd, nFf]],
    ['blk.0.ffn_down.weight', [nFf, nEmbd]],
  ];

  chunks.push(Buffer.from('GGUF', 'ascii'));
  u32(3);
  u64(tensors.length);
  u64(kv.length);
  for (const [key, write] of kv) {
    str(key);
    write();
  }
  const align = (n: number) => Math.ceil(n / 32) * 32;
  let offset = 0;
  const sizes: number[] = [];
  for (const [name, dims] of tensors) {
    str(name);
    u32(dims.length);
    dims.forEach(u64);
    u32(0); // F32
    u64(offset);
    const size = dims.reduce((a, b) => a * b, 1) * 4;
    sizes.push(size);
    offset = align(offset + size);
  }
  const header = Buffer.concat(chunks);
  const dataStart = align(header.length);
  const data = Buffer.alloc(offset);
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 0.2;
  let at = 0;
  tensors.forEach(([name], i) => {
    const count = sizes[i] / 4;
    for (let j = 0; j < count; j++) data.writeFloatLE(name.endsWith('norm.weight') ? 1 : random(), at + j * 4);
    at = align(at + sizes[i]);
  });
  writeFileSync(path, Buffer.concat([header, Buffer.alloc(dataStart - header.length), data]));
}
