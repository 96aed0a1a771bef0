import hljsCore from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import clojure from 'highlight.js/lib/languages/clojure';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import dart from 'highlight.js/lib/languages/dart';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import dos from 'highlight.js/lib/languages/dos';
import elixir from 'highlight.js/lib/languages/elixir';
import erlang from 'highlight.js/lib/languages/erlang';
import go from 'highlight.js/lib/languages/go';
import haskell from 'highlight.js/lib/languages/haskell';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import latex from 'highlight.js/lib/languages/latex';
import lua from 'highlight.js/lib/languages/lua';
import markdown from 'highlight.js/lib/languages/markdown';
import perl from 'highlight.js/lib/languages/perl';
import php from 'highlight.js/lib/languages/php';
import powershell from 'highlight.js/lib/languages/powershell';
import python from 'highlight.js/lib/languages/python';
import r from 'highlight.js/lib/languages/r';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scala from 'highlight.js/lib/languages/scala';
import scss from 'highlight.js/lib/languages/scss';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import type { LanguageFn } from 'highlight.js';
import { HLJS_TO_CODES, LanguageCode } from './languages';

/**
 * highlight.js as a classifier: the relevance each grammar earns on the text (what `highlightAuto`
 * ranks by). `highlightAuto` only returns the best two, and skips grammars flagged
 * `disableAutodetect` (C is one), so each grammar is run the same way `highlightAuto` does
 * (`ignoreIllegals: false`: a grammar that meets an illegal construct scores 0).
 *
 * A private instance holding only our grammars: loading the full highlight.js would register
 * ~190 languages, and other code may configure the shared instance.
 */
const GRAMMARS: Record<string, LanguageFn> = {
  bash,
  c,
  clojure,
  cpp,
  csharp,
  css,
  dart,
  dockerfile,
  dos,
  elixir,
  erlang,
  go,
  haskell,
  ini,
  java,
  javascript,
  json,
  kotlin,
  latex,
  lua,
  markdown,
  perl,
  php,
  powershell,
  python,
  r,
  ruby,
  rust,
  scala,
  scss,
  sql,
  swift,
  typescript,
  xml,
  yaml,
};

const hljs = hljsCore.newInstance();
for (const name of HLJS_TO_CODES.keys()) {
  const grammar = GRAMMARS[name];
  if (!grammar) throw new Error(`highlight.js grammar ${name} is not imported`);
  hljs.registerLanguage(name, grammar);
}

export type Scores = Map<LanguageCode, number>;

/**
 * Relevance per language code (0 for grammars that hit an illegal construct).
 * `only`: score just the grammars feeding these codes (all grammars when omitted).
 */
export function hljsRelevance(text: string, only?: Iterable<LanguageCode>): Scores {
  const scores: Scores = new Map();
  if (!text.trim()) return scores;
  const wanted = only ? new Set(only) : null;
  for (const [grammar, codes] of HLJS_TO_CODES) {
    if (wanted && !codes.some((code) => wanted.has(code))) continue;
    let relevance: number;
    try {
      const res = hljs.highlight(text, { language: grammar, ignoreIllegals: false });
      relevance = res.illegal ? 0 : res.relevance;
    } catch {
      relevance = 0;
    }
    for (const code of codes) scores.set(code, relevance);
  }
  return scores;
}
