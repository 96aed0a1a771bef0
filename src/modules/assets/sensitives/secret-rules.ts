/**
 * What secretlint's recommended preset does not find, written as Trove's own rules: the AWS
 * access key id (the preset scans it only when asked), passwords in URLs of any scheme and in
 * assignments, high-entropy values of secret-named variables, and a few token formats the
 * preset has no rule for (Stripe, JWT, Google API keys, Twilio, Mailgun). Built from the dev set
 * of eval/secrets.js (seed 1); its held-out set (another seed, other contexts) is what
 * docs/MODELS.md reports.
 */

export type SensitiveCategory =
  | 'UNKNOWN'
  | 'SECRET'
  | 'API_KEY'
  | 'CLIENT_ID'
  | 'CLIENT_SECRET'
  | 'SECRET_KEY'
  | 'API_TOKEN'
  | 'ACCESS_KEY'
  | 'ACCESS_TOKEN'
  | 'URL'
  | 'PUBLIC_KEY'
  | 'PRIVATE_KEY'
  | 'API_ID'
  | 'WEB_HOOK_URL';
export type SensitiveSeverity = 'LOW' | 'MODERATE' | 'HIGH';

/** One secret found in a text: where it is (UTF-16 offsets, `end` exclusive) and what it is. */
export interface Finding {
  /** The rule that found it: a secretlint rule id, or `trove/...` for Trove's own. */
  rule: string;
  start: number;
  end: number;
  category: SensitiveCategory;
  severity: SensitiveSeverity;
  /** A short name of the kind of secret ("AWS access key id"): never the secret. */
  name: string;
  description: string;
  /** Shannon entropy of the value in bits per character, for the entropy rule. */
  entropy?: number;
}

interface PatternRule {
  id: string;
  pattern: RegExp;
  /** The capture group holding the secret (0: the whole match). */
  group?: number;
  category: SensitiveCategory;
  severity: SensitiveSeverity;
  name: string;
  description: string;
  /** Rejects a match that is not a secret after all. */
  accept?: (value: string, match: RegExpExecArray) => boolean;
}

/** Bits per character of `value`'s distribution of characters. */
export function entropyOf(value: string): number {
  if (!value) return 0;
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  const n = [...value].length;
  for (const count of counts.values()) {
    const p = count / n;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * A value that stands for a secret instead of being one: empty-ish, masked, a template or
 * environment reference, a word like "changeme", an example.
 */
export function isPlaceholder(value: string): boolean {
  const v = value.trim();
  if (v.length < 4) return true;
  if (/^[x*.#?_-]+$/i.test(v) || /^(.)\1+$/.test(v)) return true;
  if (/^[<[{(].*[>\]})]$/.test(v)) return true; // <password>, [token], {secret}
  if (/\$\{|\{\{|\$\(|%\(|%[A-Z_]+%|^\$[A-Za-z_]|^process\.env|^os\.environ|^env\(|^ENV\[/.test(v)) return true;
  if (
    /^(?:change[-_ ]?me|changeit|passw(?:or)?d\d*|pass\d*|secret\d*|token\d*|key\d*|api[-_]?key|null|none|nil|undefined|true|false|empty|redacted|hidden|masked|required|optional|string|value|default|todo|test(?:ing)?\d*|dummy|fake|sample|foo|bar|baz|qwerty|letmein|admin|root|guest|user(?:name)?|example)$/i.test(
      v,
    )
  )
    return true;
  if (
    /example|placeholder|your[-_ ]|my[-_]?(?:secret|token|password|key)|replace[-_ ]?me|insert[-_ ]|enter[-_ ]|xxxx|\*\*\*|<|>|\.\.\./i.test(
      v,
    )
  )
    return true;
  return false;
}

/** Names of variables, keys and options that hold passwords. */
const PASSWORD_NAME = String.raw`[A-Za-z0-9_.-]*(?:pass(?:word|wd|phrase)|pwd|(?<![a-z])pass(?![a-z]))[A-Za-z0-9_]*`;
/** Names of variables, keys and options that hold other secrets. */
const SECRET_NAME = String.raw`[A-Za-z0-9_.-]*(?:secret|token|api[-_]?key|apikey|access[-_]?key|private[-_]?key|client[-_]?secret|auth[-_]?key|credential|signing[-_]?key|encryption[-_]?key|master[-_]?key|session[-_]?key|webhook[-_]?secret)[A-Za-z0-9_]*`;
/** `name = "value"`, `name: 'value'`, `"name": "value"`, `name => "value"`, `name := "value"`, `NAME=value` (env files). */
const assignment = (name: string, value: string) =>
  new RegExp(
    String.raw`(?<![A-Za-z0-9_])["']?(${name})["']?\s*(?:=|:=|=>|:)\s*(?:[A-Za-z]?["'\`]([^"'\`\s\\]{1,200})["'\`]|(?<=[=:]\s*)(${value}))`,
    'dgi',
  );

/** Values of secret-named variables random enough to be a key: length and bits per character. */
const ENTROPY_MIN_LENGTH = 16;
const ENTROPY_MIN_BITS = 3.5;
const ENTROPY_MIN_BITS_HEX = 3.0;

const RULES: PatternRule[] = [
  {
    id: 'trove/aws-access-key-id',
    pattern: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}\b/g,
    category: 'ACCESS_KEY',
    severity: 'HIGH',
    name: 'AWS access key id',
    description: 'An AWS access key id: with its secret key it signs requests to the account.',
    accept: (value) => !/EXAMPLE/.test(value),
  },
  {
    id: 'trove/stripe-key',
    pattern: /\b(?:sk|rk)_live_[A-Za-z0-9]{20,99}\b/g,
    category: 'SECRET_KEY',
    severity: 'HIGH',
    name: 'Stripe secret key',
    description: 'A live Stripe secret or restricted key: it moves money on the account.',
  },
  {
    id: 'trove/private-key-block',
    // Any PEM private key with a body (secretlint's rule takes only bodies that start as RSA/PKCS#8 keys do: not EC's "MH...").
    pattern:
      /-----BEGIN[ A-Z0-9]{0,20}PRIVATE KEY(?: BLOCK)?-----(?:\\n|\s)+[A-Za-z0-9+/=\s\\]{64,10000}?-----END[ A-Z0-9]{0,20}PRIVATE KEY(?: BLOCK)?-----/g,
    category: 'PRIVATE_KEY',
    severity: 'HIGH',
    name: 'private key',
    description: 'A private key in PEM form.',
  },
  {
    id: 'trove/jwt',
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g,
    category: 'ACCESS_TOKEN',
    severity: 'MODERATE',
    name: 'JSON Web Token',
    description: 'A signed JSON Web Token: it may still grant access until it expires.',
  },
  {
    id: 'trove/google-api-key',
    pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g,
    category: 'API_KEY',
    severity: 'HIGH',
    name: 'Google API key',
    description: 'A Google Cloud API key.',
  },
  {
    id: 'trove/twilio-key',
    pattern: /\bSK[0-9a-f]{32}\b/g,
    category: 'API_KEY',
    severity: 'HIGH',
    name: 'Twilio API key',
    description: 'A Twilio API key sid.',
  },
  {
    id: 'trove/mailgun-key',
    pattern: /\bkey-[0-9a-f]{32}\b/g,
    category: 'API_KEY',
    severity: 'HIGH',
    name: 'Mailgun API key',
    description: 'A Mailgun private API key.',
  },
  {
    id: 'trove/url-password',
    // scheme://user:password@host (any scheme): the password is the secret.
    pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@"'`]{1,100}:([^\s@/"'`]{1,200})@[A-Za-z0-9.[\]-]/dgi,
    group: 1,
    category: 'URL',
    severity: 'HIGH',
    name: 'password in a URL',
    description: 'A URL that carries a password for the service it names.',
    accept: (value) => !isPlaceholder(decodeSafely(value)),
  },
  {
    id: 'trove/password-assignment',
    pattern: assignment(PASSWORD_NAME, String.raw`[^\s"'\`#;,()[\]{}<>]{6,200}(?![\w(.])`),
    group: 2,
    category: 'SECRET',
    severity: 'HIGH',
    name: 'password',
    description: 'A password written into the text.',
    accept: (value, match) => passwordLike(value, match),
  },
  {
    id: 'trove/secret-assignment',
    pattern: assignment(SECRET_NAME, String.raw`[^\s"'\`#;,()[\]{}<>]{16,200}(?![\w(.])`),
    group: 2,
    category: 'SECRET',
    severity: 'HIGH',
    name: 'secret value',
    description: 'A random-looking value given to a variable named as a secret.',
    accept: (value) => secretLike(value),
  },
];

function decodeSafely(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A password literal: not a placeholder, a type, a call or a reference to another variable. */
function passwordLike(value: string, match: RegExpExecArray): boolean {
  if (value.length < 6 || isPlaceholder(value)) return false;
  const name = match[1].toLowerCase();
  // password_field = "password_input", passwordLabel: "Enter password"...
  if (
    /(?:field|label|prompt|hint|placeholder|input|column|param|key|name|policy|regex|pattern|length|min|max|hash|reset|confirm|type|url|path|file|dir|env|flag|msg|message|error|text|title|id)s?$/.test(
      name,
    )
  )
    return false;
  if (/^(?:[a-z]+[_-])*(?:pass(?:word|wd)?|pwd)s?$/i.test(value)) return false; // the field's own name
  if (/^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_.]*$/i.test(value) && !/\d/.test(value)) return false; // a dotted reference
  if (/^(?:[A-Z][a-z]+)+$/.test(value)) return false; // a type name (PasswordInput)
  return true;
}

/** A value of a secret-named variable random enough to be a key (ENTROPY_MIN_* ). */
function secretLike(value: string): boolean {
  if (value.length < ENTROPY_MIN_LENGTH || isPlaceholder(value)) return false;
  if (/^[a-z]+(?:[-_.][a-z]+)*$/i.test(value)) return false; // words: an identifier, a header name
  if (/^[A-Za-z]+(?:[A-Z][a-z]+)+$/.test(value)) return false; // CamelCase words
  if (/^(?:https?:)?\/\/|^\.{0,2}\/|^[A-Za-z]:\\/.test(value)) return false; // a URL or a path
  if (!/\d/.test(value) || !/[A-Za-z]/.test(value)) return false;
  // Hex carries 4 bits a character at most: its random values score lower than base64's.
  return entropyOf(value) >= (/^[0-9a-f]+$/i.test(value) ? ENTROPY_MIN_BITS_HEX : ENTROPY_MIN_BITS);
}

/** Trove's own findings in `text` (see RULES). */
export function extraFindings(text: string): Finding[] {
  const out: Finding[] = [];
  for (const rule of RULES) {
    rule.pattern.lastIndex = 0;
    for (const match of text.matchAll(rule.pattern)) {
      const group = rule.group ?? 0;
      // An assignment's value is quoted (group 2) or bare (group 3).
      const at = match[group] === undefined && group === 2 ? 3 : group;
      const value = match[at];
      if (!value) continue;
      if (at === 3 && !/\d|[^A-Za-z0-9_.]/.test(value)) continue; // a bare word is a reference, not a literal
      if (rule.accept && !rule.accept(value, match)) continue;
      const offset = at === 0 ? match.index : match.indices![at][0];
      const finding: Finding = {
        rule: rule.id,
        start: offset,
        end: offset + value.length,
        category: rule.category,
        severity: rule.severity,
        name: rule.name,
        description: rule.description,
      };
      if (rule.id === 'trove/secret-assignment') finding.entropy = Math.round(entropyOf(value) * 1000) / 1000;
      out.push(finding);
    }
  }
  return out;
}
