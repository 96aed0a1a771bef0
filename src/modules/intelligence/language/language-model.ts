import { Logger } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClassificationSpecificEnum } from '../../../common/wire/enums';
import { ModelFile } from '../model-file';
import { FEATURE_VERSION, languageFeatures } from './features';
import type { Scores } from './hljs-scorer';

/**
 * Trove's own language classifier: a linear model over hashed token, line and character
 * n-gram features (features.ts), trained at development time on code from Debian and npm
 * packages (ml/language, docs/MODELS.md) and shipped in the repository as
 * `language-model.bin` beside this file. Nothing is downloaded; the file is read on first use
 * (9.7 MB, kept in memory as int8). One prediction is a sparse dot product: well under a
 * millisecond for a 2 KB snippet.
 *
 * File layout (written by ml/language/train.py): `TRVL`, uint32 header length, header JSON,
 * float32 scale[C], float32 bias[C], int8 weights[2^bits * C] feature-major.
 */
export const LANGUAGE_MODEL_FILE = join(__dirname, 'language-model.bin');

interface ModelHeader {
  format: number;
  featureVersion: number;
  bits: number;
  classes: ClassificationSpecificEnum[];
}

export class LanguageModel {
  private constructor(
    readonly header: ModelHeader,
    private readonly scale: Float32Array,
    private readonly bias: Float32Array,
    private readonly weights: Int8Array,
  ) {}

  static fromBuffer(buffer: Buffer): LanguageModel {
    const file = new ModelFile<ModelHeader>(buffer, 'TRVL', 'language model');
    const header = file.header;
    if (header.format !== 1) throw new Error(`unsupported language model format ${header.format}`);
    if (header.featureVersion !== FEATURE_VERSION) {
      throw new Error(
        `language model was trained on features v${header.featureVersion}, this build computes v${FEATURE_VERSION}: retrain it`,
      );
    }
    const c = header.classes.length;
    const scale = file.floats(c);
    const bias = file.floats(c);
    const size = (1 << header.bits) * c;
    if (file.remaining !== size)
      throw new Error(`language model is truncated (${file.remaining} of ${size} weight bytes)`);
    return new LanguageModel(header, scale, bias, file.int8(size));
  }

  static load(file = LANGUAGE_MODEL_FILE): LanguageModel {
    return LanguageModel.fromBuffer(readFileSync(file));
  }

  get classes(): readonly ClassificationSpecificEnum[] {
    return this.header.classes;
  }

  /** Bytes held in memory by the weights. */
  get bytes(): number {
    return this.weights.byteLength;
  }

  /** Probabilities per language (softmax over the linear scores), summing to 1. */
  predict(text: string): Scores {
    const c = this.header.classes.length;
    const { indices, values } = languageFeatures(text, this.header.bits);
    const acc = new Float64Array(c);
    for (let i = 0; i < indices.length; i++) {
      const base = indices[i] * c;
      const v = values[i];
      for (let k = 0; k < c; k++) acc[k] += v * this.weights[base + k];
    }
    let max = -Infinity;
    for (let k = 0; k < c; k++) {
      acc[k] = acc[k] * this.scale[k] + this.bias[k];
      if (acc[k] > max) max = acc[k];
    }
    let total = 0;
    for (let k = 0; k < c; k++) {
      acc[k] = Math.exp(acc[k] - max);
      total += acc[k];
    }
    const scores: Scores = new Map();
    for (let k = 0; k < c; k++) scores.set(this.header.classes[k], acc[k] / total);
    return scores;
  }
}

let shared: LanguageModel | null | undefined;

/**
 * The process-wide model, read from its file on first use; null (with one warning logged) when
 * the file cannot be read, so detection goes on with the rules and highlight.js alone.
 */
export function languageModel(): LanguageModel | null {
  if (shared === undefined) {
    try {
      shared = LanguageModel.load();
    } catch (err) {
      shared = null;
      new Logger('LanguageDetector').warn(
        `language classifier unavailable (${LANGUAGE_MODEL_FILE}): ${err instanceof Error ? err.message : String(err)}; using rules and highlight.js only`,
      );
    }
  }
  return shared;
}
