import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig } from '@secretlint/types';
import type { FormatEntity } from '../format.entity';
import type { AssetAggregate } from '../wire/asset.wire';
import { Finding, SensitiveCategory, SensitiveSeverity, entropyOf, extraFindings } from './secret-rules';

/** Text past this many characters is not scanned (a save of megabytes stays fast). */
export const SCANNED_CHARS = 1_000_000;

const CONFIG: SecretLintCoreConfig = {
  rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }],
};

// secretlint's profiler (a singleton of @secretlint/profiler) marks the start and end of every
// rule of every lint in the process's performance timeline and keeps each mark in an array it
// searches on every end mark: never cleared, so each scan costs more than the last (a save's
// scan took milliseconds after a few thousand saves, an import of 3,000 snippets minutes).
// Upstream: secretlint issues #1633 and #1653, fixed by `setEnabled(false)` in 13.0.5, which
// needs Node 22 (Trove runs on 20.19). Until then its marks are turned off here, which is what
// that fix does; nothing reads them.
const profiler = secretLintProfiler as typeof secretLintProfiler & { setEnabled?: (enabled: boolean) => void };
if (typeof profiler.setEnabled === 'function') profiler.setEnabled(false);
else profiler.mark = () => undefined;

/** What a secretlint finding is, by rule (and message) id: never from its message, which quotes the secret. */
interface Kind {
  category: SensitiveCategory;
  severity: SensitiveSeverity;
  name: string;
}
const KINDS: Record<string, Kind> = {
  'aws/AWSSecretAccessKey': { category: 'SECRET_KEY', severity: 'HIGH', name: 'AWS secret access key' },
  'aws/AWSAccessKeyID': { category: 'ACCESS_KEY', severity: 'HIGH', name: 'AWS access key id' },
  'aws/AWSAccountID': { category: 'API_ID', severity: 'LOW', name: 'AWS account id' },
  github: { category: 'ACCESS_TOKEN', severity: 'HIGH', name: 'GitHub token' },
  gitlab: { category: 'ACCESS_TOKEN', severity: 'HIGH', name: 'GitLab token' },
  slack: { category: 'API_TOKEN', severity: 'HIGH', name: 'Slack token' },
  'slack/IncomingWebhook': { category: 'WEB_HOOK_URL', severity: 'MODERATE', name: 'Slack incoming webhook' },
  privatekey: { category: 'PRIVATE_KEY', severity: 'HIGH', name: 'private key' },
  'secp256k1-privatekey': { category: 'PRIVATE_KEY', severity: 'HIGH', name: 'secp256k1 private key' },
  'database-connection-string': {
    category: 'URL',
    severity: 'HIGH',
    name: 'database connection string with a password',
  },
  basicauth: { category: 'URL', severity: 'HIGH', name: 'password in a URL' },
  npm: { category: 'ACCESS_TOKEN', severity: 'HIGH', name: 'npm access token' },
  gcp: { category: 'PRIVATE_KEY', severity: 'HIGH', name: 'Google Cloud service account key' },
  openai: { category: 'API_KEY', severity: 'HIGH', name: 'OpenAI API key' },
  anthropic: { category: 'API_KEY', severity: 'HIGH', name: 'Anthropic API key' },
  sendgrid: { category: 'API_KEY', severity: 'HIGH', name: 'SendGrid API key' },
  shopify: { category: 'ACCESS_TOKEN', severity: 'HIGH', name: 'Shopify token' },
  '1password': { category: 'SECRET_KEY', severity: 'HIGH', name: '1Password secret key' },
  linear: { category: 'API_KEY', severity: 'HIGH', name: 'Linear API key' },
  huggingface: { category: 'ACCESS_TOKEN', severity: 'HIGH', name: 'Hugging Face token' },
  groq: { category: 'API_KEY', severity: 'HIGH', name: 'Groq API key' },
  figma: { category: 'ACCESS_TOKEN', severity: 'HIGH', name: 'Figma token' },
  notion: { category: 'API_KEY', severity: 'HIGH', name: 'Notion API key' },
  vercel: { category: 'ACCESS_TOKEN', severity: 'HIGH', name: 'Vercel token' },
  databricks: { category: 'ACCESS_TOKEN', severity: 'HIGH', name: 'Databricks token' },
  grafana: { category: 'API_TOKEN', severity: 'HIGH', name: 'Grafana token' },
  'hashicorp-vault': { category: 'ACCESS_TOKEN', severity: 'HIGH', name: 'HashiCorp Vault token' },
  docker: { category: 'ACCESS_TOKEN', severity: 'HIGH', name: 'Docker credential' },
};

function kindOf(ruleId: string, messageId: string | undefined): Kind {
  const rule = ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
  return (
    KINDS[`${rule}/${messageId}`] ?? KINDS[rule] ?? { category: 'SECRET', severity: 'HIGH', name: `secret (${rule})` }
  );
}

/** Narrows a range to the secret: no surrounding quotes or blanks (some rules report the quote that ends a URL). */
function trim(text: string, start: number, end: number): [number, number] {
  while (start < end && /[\s"'`]/.test(text[start])) start++;
  while (end > start && /[\s"'`,;]/.test(text[end - 1])) end--;
  return [start, end];
}

/** A secret as stored: where and what, and a mask that shows enough of it to recognise (never all of it). */
export interface DetectedSecret extends Finding {
  /** `AKIA************MPLE`: the first and last four characters of a long secret, stars between. */
  masked: string;
  /** Identifies the secret in its asset (rule and value), to keep a dismissal across re-detections. */
  value: string;
}

/** `AKIA************MPLE` for a secret of 20 characters; stars only when it is short. */
export function mask(value: string): string {
  const chars = [...value];
  if (chars.length <= 12) return '*'.repeat(Math.max(chars.length, 8));
  const shown = chars.length >= 20 ? 4 : 2;
  return (
    chars.slice(0, shown).join('') + '*'.repeat(Math.min(chars.length - 2 * shown, 32)) + chars.slice(-shown).join('')
  );
}

/**
 * The secrets in a text: secretlint's recommended preset (its rules as they come from npm) and
 * Trove's own rules (secret-rules.ts) for what it lacks. Overlapping findings are one secret,
 * the first in text order (a tie: the longer) kept. Nothing here logs: a finding's message from
 * secretlint quotes the secret, so only its rule and range are read.
 */
export function detectSecrets(text: string): Promise<DetectedSecret[]> {
  // A save scans its text twice (its sensitives, and its name and tags made without them), and
  // a use case scans before its unit of work what its projection reads in it (prepareSecrets): once.
  const known = recent.get(text);
  if (known) return known;
  const pending = scan(text);
  recent.set(text, pending);
  recentChars += text.length;
  while (recent.size > RECENT || (recentChars > RECENT_CHARS && recent.size > 1)) {
    const oldest = recent.keys().next().value as string;
    recent.delete(oldest);
    recentChars -= oldest.length;
  }
  pending.catch(() => {
    if (recent.get(text) === pending && recent.delete(text)) recentChars -= text.length;
  });
  return pending;
}

/**
 * Scans texts now, before the unit of work that saves them: the unit of work's projection
 * (AssetSecrets) then finds their results made (detectSecrets' memo), and a save queued behind
 * it in the writer never waits on a scan. An import's batch holds up to BATCH_RECORDS records:
 * the memo keeps that many texts.
 */
export async function prepareSecrets(texts: Iterable<string>): Promise<void> {
  await Promise.all([...new Set(texts)].map((text) => detectSecrets(text)));
}

/** The texts scanned last, and what was found in them (at most RECENT texts, RECENT_CHARS characters). */
const recent = new Map<string, Promise<DetectedSecret[]>>();
const RECENT = 4096;
const RECENT_CHARS = 16_000_000;
let recentChars = 0;

/**
 * Anchors that every rule of the preset needs to match something (see hasCandidate): a URL
 * carrying a user (basic auth, database connection strings, GitHub's x-oauth-basic), a PEM or
 * service-account private key, npm's `_authToken=`, Docker's `"auths"`, a 12-digit AWS account id,
 * a Slack webhook.
 */
const ANCHOR = /:\/\/[^\s/@]{0,300}@|PRIVATE KEY|private_key|_authToken|"auths?"|hooks\.slack\.com|(?<!\d)\d{12}(?!\d)/;
/** Runs of token characters long enough to be a key or token of the preset's rules (their shortest: 16 random characters). */
const RUN = /[A-Za-z0-9_+/=.-]{16,}/g;

/**
 * Whether `text` holds anything secretlint's preset could report: one of its anchors, or a run
 * of token characters that looks random (letters and digits, or both cases with two capitals
 * together: `hf_` tokens are letters only) rather than a word, a path or a rule of dashes. Most
 * snippets hold neither and are not linted at all; eval/secrets.js measures what this costs in
 * recall (the preset run on every text, `prefilter: false`) and how many texts it lets through.
 */
export function hasCandidate(text: string): boolean {
  if (ANCHOR.test(text)) return true;
  RUN.lastIndex = 0;
  for (let m = RUN.exec(text); m; m = RUN.exec(text)) {
    const run = m[0];
    const letters = /[A-Za-z]/.test(run);
    if (letters && /\d/.test(run)) return true;
    if (/[A-Z]{2}/.test(run) && (run.match(/[A-Z]/g)?.length ?? 0) >= 4 && (run.match(/[a-z]/g)?.length ?? 0) >= 4)
      return true;
  }
  return false;
}

/** The preset's findings in `content`. */
async function linted(content: string): Promise<Finding[]> {
  const result = await lintSource({
    source: { filePath: 'snippet', content, contentType: 'text', ext: '' },
    options: { config: CONFIG, maskSecrets: true },
  });
  const findings: Finding[] = [];
  for (const message of result.messages) {
    if (message.type !== 'message' || !message.range) continue;
    const [start, end] = trim(content, message.range[0], message.range[1]);
    if (end <= start) continue;
    const kind = kindOf(message.ruleId, message.messageId);
    findings.push({
      rule: message.ruleId,
      start,
      end,
      ...kind,
      description: `Found by secretlint's ${message.ruleId.replace(/^@secretlint\//, '')} rule.`,
    });
  }
  return findings;
}

/**
 * The secrets in `text`, without the memo of detectSecrets. `prefilter: false` runs the preset on
 * every text (eval/secrets.js compares the two).
 */
export async function scan(text: string, options: { prefilter?: boolean } = {}): Promise<DetectedSecret[]> {
  const content = text.length > SCANNED_CHARS ? text.slice(0, SCANNED_CHARS) : text;
  if (!content.trim()) return [];
  const findings = options.prefilter === false || hasCandidate(content) ? await linted(content) : [];
  findings.push(...extraFindings(content));
  findings.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: DetectedSecret[] = [];
  for (const finding of findings) {
    const last = kept[kept.length - 1];
    if (last && finding.start < last.end) continue; // the same secret, already found
    const value = content.slice(finding.start, finding.end);
    kept.push({ ...finding, value, masked: mask(value), entropy: finding.entropy ?? round(entropyOf(value)) });
  }
  return kept;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** `text` with every secret replaced by its mask (MCP's snippet tools, unless asked for the secrets). */
export function maskText(text: string, secrets: Array<Pick<DetectedSecret, 'start' | 'end' | 'masked'>>): string {
  let out = '';
  let at = 0;
  for (const s of [...secrets].sort((a, b) => a.start - b.start)) {
    if (s.start < at || s.end > text.length) continue;
    out += text.slice(at, s.start) + s.masked;
    at = s.end;
  }
  return out + text.slice(at);
}

/**
 * An asset as an agent may read it without asking for its secrets: the first format's text with
 * each sensitive replaced by its mask (MCP's snippet tools and resources). The aggregate itself
 * is left as it is.
 */
export function withSecretsMasked(aggregate: AssetAggregate): AssetAggregate {
  const [first, ...rest] = aggregate.formats;
  if (!first || aggregate.sensitives.length === 0) return aggregate;
  const raw = maskText(
    first.raw,
    aggregate.sensitives.map((s) => ({ start: s.matchStart, end: s.matchEnd, masked: s.text })),
  );
  return {
    ...aggregate,
    formats: [
      Object.assign(Object.create(Object.getPrototypeOf(first) as object) as FormatEntity, first, { raw }),
      ...rest,
    ],
  };
}

/** `text` with each secret found in it blanked (what enrichment generates names and tags from). */
export async function withoutSecrets(text: string): Promise<string> {
  const found = await detectSecrets(text);
  return found.length
    ? maskText(
        text,
        found.map((s) => ({ start: s.start, end: s.end, masked: ' ' })),
      )
    : text;
}
