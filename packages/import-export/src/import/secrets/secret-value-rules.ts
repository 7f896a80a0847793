/** Shannon entropy of a string in bits per character. */
export function shannonEntropy(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  const length = [...value].length;
  let bits = 0;
  for (const count of counts.values()) bits -= (count / length) * Math.log2(count / length);
  return bits;
}

/** Values written in docs in place of a secret: `password`, `changeme`, `xxxx`, `<token>`, `${VAR}`. */
export function isPlaceholder(value: string): boolean {
  const bare = value.toLowerCase();
  if (/^(?:password|passwd|pass|secret|token|changeme|example|redacted|none|null|undefined|todo)$/.test(bare)) return true;
  if (/^(.)\1+$/.test(bare) || /^x+$/.test(bare)) return true;
  return /^[<{$%[*]/.test(value) || /^your[-_]/.test(bare);
}

/**
 * Whether the value of a `password=` / `secret:` / `token:` assignment looks like a real secret:
 * at least 8 characters, letters and digits, 2.5+ bits of entropy per character, and not a
 * placeholder, an environment variable's name (`GITHUB_TOKEN`) or a dotted reference
 * (`process.env.TOKEN`). Plain words (`password: stored-in-vault`) stay unflagged on purpose: a
 * scanner that flags prose gets switched off.
 */
export function looksLikeSecretValue(value: string): boolean {
  if (value.length < 8 || isPlaceholder(value)) return false;
  if (/^[A-Z][A-Z0-9_]*$/.test(value) || /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return false;
  if (!/[A-Za-z]/.test(value) || !/\d/.test(value)) return false;
  return shannonEntropy(value) >= 2.5;
}
