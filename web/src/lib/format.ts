/** Formatting and reading of wire values: language names, dates, sizes, an asset's text. */
import type { Asset, Format } from './types';

/** The languages Drive's filter offers (the common ClassificationSpecificEnum values) and their names. */
export const LANGUAGES: Record<string, string> = {
  py: 'Python',
  ts: 'TypeScript',
  tsx: 'TSX',
  js: 'JavaScript',
  jsx: 'JSX',
  java: 'Java',
  kt: 'Kotlin',
  go: 'Go',
  rs: 'Rust',
  rb: 'Ruby',
  php: 'PHP',
  cs: 'C#',
  cpp: 'C++',
  c: 'C',
  h: 'C header',
  swift: 'Swift',
  dart: 'Dart',
  scala: 'Scala',
  sh: 'Shell',
  bat: 'Batch',
  ps1: 'PowerShell',
  sql: 'SQL',
  html: 'HTML',
  css: 'CSS',
  scss: 'SCSS',
  json: 'JSON',
  yaml: 'YAML',
  yml: 'YAML',
  toml: 'TOML',
  xml: 'XML',
  md: 'Markdown',
  lua: 'Lua',
  r: 'R',
  hs: 'Haskell',
  erl: 'Erlang',
  ex: 'Elixir',
  clj: 'Clojure',
  el: 'Emacs Lisp',
  tex: 'TeX',
  txt: 'Plain text',
  text: 'Plain text',
};

export function languageName(specific: string | undefined): string {
  if (!specific || specific === 'UNKNOWN') return 'Plain text';
  return LANGUAGES[specific] ?? specific.toUpperCase();
}

/** The format an asset shows: its original (the one Trove classified), else its first. */
export function mainFormat(asset: Asset): Format | undefined {
  return asset.original?.reference ?? asset.formats?.iterable?.[0] ?? asset.preview?.base?.reference;
}

export function assetLanguage(asset: Asset): string | undefined {
  return mainFormat(asset)?.classification?.specific;
}

/** The asset's text (only in responses with transferables). */
export function assetText(asset: Asset): string {
  const format = mainFormat(asset);
  return format?.fragment?.string?.raw ?? format?.file?.string?.raw ?? '';
}

export function assetName(asset: Asset): string {
  return asset.name?.trim() || 'Unnamed snippet';
}

/** The kinds of the secrets Trove found in the snippet ("AWS access key id", ...), each once. */
export function secretNames(asset: Asset): string[] {
  return [...new Set((asset.sensitives?.iterable ?? []).map((s) => s.name))];
}

export function assetDescription(asset: Asset): string | undefined {
  return asset.annotations?.iterable?.find((a) => a.type === 'DESCRIPTION')?.text;
}

export function assetApplication(asset: Asset): string | undefined {
  return mainFormat(asset)?.application?.name;
}

/** "just now", "5 min ago", "3 h ago", "yesterday", "12 Mar", "12 Mar 2024". */
export function relativeTime(iso: string, now: Date = new Date()): string {
  const then = new Date(iso);
  if (Number.isNaN(then.getTime())) return '';
  const seconds = Math.round((now.getTime() - then.getTime()) / 1000);
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.max(1, Math.round(seconds / 60))} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  if (seconds < 2 * 86_400) return 'yesterday';
  const sameYear = then.getUTCFullYear() === now.getUTCFullYear();
  return then.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
    timeZone: 'UTC',
  });
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** A link is shown as a link only when it is http(s); anything else (javascript:, data:) is text. */
export function safeHttpUrl(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}
