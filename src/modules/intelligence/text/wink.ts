/* eslint-disable @typescript-eslint/no-require-imports */
/**
 * wink-nlp with its English "lite web" model (it ships inside the npm package: nothing is
 * downloaded). Loaded once, on first use, with a noun-chunk pattern set for key phrases.
 */
export interface WinkToken {
  text: string;
  lemma: string;
  pos: string;
  type: string;
  stop: boolean;
}
interface WinkChunk {
  text: string;
  /** Index of the chunk's first token in the document. */
  start: number;
  /** Inclusive index of its last token. */
  end: number;
}
export interface WinkAnalysis {
  sentences: { text: string; tokens: WinkToken[] }[];
  chunks: WinkChunk[];
}

/**
 * Noun chunks: optional adjectives/nouns before a noun head (up to three words). An adjective
 * never follows a noun inside a chunk: "moves smaller items" is a verb phrase the tagger read
 * as NOUN ADJ NOUN, not a thing to ask about.
 */
const NOUN_CHUNK_PATTERNS = [
  '[NOUN|PROPN]',
  '[ADJ|NOUN|PROPN] [NOUN|PROPN]',
  '[ADJ|NOUN|PROPN] [NOUN|PROPN] [NOUN|PROPN]',
  '[ADJ] [ADJ] [NOUN|PROPN]',
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Nlp = any;
let nlp: Nlp | null = null;

function load(): Nlp {
  if (nlp) return nlp;
  const winkNLP = require('wink-nlp');
  const model = require('wink-eng-lite-web-model');
  const instance = winkNLP(model);
  instance.learnCustomEntities([{ name: 'chunk', patterns: NOUN_CHUNK_PATTERNS }], {
    matchValue: false,
    usePOS: true,
    useEntity: false,
  });
  nlp = instance;
  return instance;
}

/** Sentences with their tokens, and the document's noun chunks. */
export function analyse(text: string): WinkAnalysis {
  const instance = load();
  const its = instance.its;
  const doc = instance.readDoc(text);
  const texts: string[] = doc.tokens().out();
  const lemmas: string[] = doc.tokens().out(its.lemma);
  const pos: string[] = doc.tokens().out(its.pos);
  const types: string[] = doc.tokens().out(its.type);
  const stops: boolean[] = doc.tokens().out(its.stopWordFlag);
  const token = (i: number): WinkToken => ({
    text: texts[i],
    lemma: String(lemmas[i]).toLowerCase(),
    pos: pos[i],
    type: types[i],
    stop: stops[i],
  });
  const sentences: WinkAnalysis['sentences'] = [];
  doc.sentences().each((sentence: Nlp) => {
    const [start, end]: [number, number] = sentence.out(its.span);
    const tokens: WinkToken[] = [];
    for (let i = start; i <= end; i += 1) tokens.push(token(i));
    sentences.push({ text: sentence.out(), tokens });
  });
  const chunks: WinkChunk[] = [];
  doc.customEntities().each((entity: Nlp) => {
    const [start, end]: [number, number] = entity.out(its.span);
    chunks.push({ text: entity.out(), start, end });
  });
  return { sentences, chunks };
}

/** Every token of `text`, in order (the analysis flattened). */
export function tokensOf(analysis: WinkAnalysis): WinkToken[] {
  return analysis.sentences.flatMap((s) => s.tokens);
}
