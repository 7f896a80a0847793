import { isPlaceholder, looksLikeSecretValue } from './secret-value-rules.js';

/** One kind of secret the import scanner looks for (docs/import-sources.md lists them). */
export interface SecretPattern {
  /** Stable name, shown in findings and in `[REDACTED:<name>]`. */
  readonly name: string;
  readonly description: string;
  /** Global regex; when it has a group named `secret` (and the `d` flag), only that group is the finding. */
  readonly regex: RegExp;
  /** A further check on the matched secret, for patterns whose shape alone is too loose. */
  readonly accept?: (secret: string) => boolean;
}

/** At least one digit: real keys are random; a digit-free run is almost always a word or a slug. */
const hasDigit = (secret: string) => /\d/.test(secret);

/**
 * The patterns, most specific first: when two findings start at the same place the earlier
 * pattern names it. Left out on purpose, unlike an earlier implementation: private IP addresses,
 * internal host names, SSN- and card-shaped numbers — common and harmless in agents' notes, and
 * a scanner that redacts ordinary text is turned off.
 */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    name: 'private-key',
    description: 'a PEM private key block (RSA, EC, OPENSSH, PGP…); an unterminated block runs to the end of the text',
    regex:
      /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$(?![\s\S]))/g,
  },
  { name: 'aws-access-key-id', description: 'an AWS access key id (AKIA…, ASIA…)', regex: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  {
    name: 'github-token',
    description: 'a GitHub token: classic (ghp_, gho_, ghu_, ghs_, ghr_) or fine-grained (github_pat_)',
    regex: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g,
  },
  { name: 'anthropic-api-key', description: 'an Anthropic API key (sk-ant-…)', regex: /\bsk-ant-[A-Za-z0-9_-]{20,}/g, accept: hasDigit },
  {
    name: 'openai-api-key',
    description: 'an OpenAI API key (sk-…, sk-proj-…), with at least one digit',
    regex: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g,
    accept: hasDigit,
  },
  {
    name: 'slack-token',
    description: 'a Slack token (xoxb-, xoxp-, xoxa-, xoxo-, xoxs-, xoxr-)',
    regex: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
    accept: hasDigit,
  },
  {
    name: 'stripe-key',
    description: 'a Stripe secret or restricted key (sk_live_, sk_test_, rk_…) or webhook secret (whsec_)',
    regex: /\b(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})\b/g,
  },
  { name: 'google-api-key', description: 'a Google API key (AIza + 35 characters)', regex: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  {
    name: 'memsvc-api-key',
    description: "memsvc's own API key (msk_ + 43 base64url characters)",
    regex: /\bmsk_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g,
  },
  {
    name: 'jwt',
    description: 'a JSON Web Token (three base64url parts, the first two JSON objects)',
    regex: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
  },
  {
    name: 'connection-string-password',
    description: 'the password in a URL or connection string (scheme://user:password@host); placeholders are not flagged',
    regex: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@]{1,100}:(?<secret>[^\s@/]{1,200})@[^\s/]/dgi,
    accept: (secret) => !isPlaceholder(secret),
  },
  {
    name: 'bearer-token',
    description: 'a bearer token in an Authorization header, with at least one digit',
    regex: /\bBearer[ \t]+(?<secret>[A-Za-z0-9._~+/-]{20,}=*)/dg,
    accept: hasDigit,
  },
  {
    name: 'secret-assignment',
    description: 'a high-entropy value assigned to a key naming a password, secret, token or key (`DB_PASSWORD=…`, `secret: …`)',
    regex:
      /(?:password|passwd|pwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?)[\w.-]{0,30}["']?[ \t]{0,5}[:=][ \t]{0,5}["']?(?<secret>[A-Za-z0-9_\-+/=.~!@#$%^&*?]{8,200})(?=$|[\s"'`,;)\]}])/dgim,
    accept: looksLikeSecretValue,
  },
];
