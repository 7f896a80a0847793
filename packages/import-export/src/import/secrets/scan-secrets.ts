import { SECRET_PATTERNS } from './secret-patterns.js';

/** Where a secret sits in a text: offsets only, so a finding can be logged without leaking it. */
export interface SecretFinding {
  readonly pattern: string;
  readonly start: number;
  readonly end: number;
}

/**
 * Finds secrets in a text, in order, never overlapping: where findings overlap, the one that
 * starts first wins, then the more specific pattern (earlier in SECRET_PATTERNS). Every pattern
 * is linear or bounded, so a hostile 1 MB file cannot stall the scan.
 */
export function scanSecrets(text: string): SecretFinding[] {
  const candidates: (SecretFinding & { rank: number })[] = [];
  for (const [rank, pattern] of SECRET_PATTERNS.entries()) {
    for (const match of text.matchAll(pattern.regex)) {
      const [start, end] = match.indices?.groups?.secret ?? [match.index, match.index + match[0].length];
      const value = text.slice(start, end);
      if (value === '' || (pattern.accept && !pattern.accept(value))) continue;
      candidates.push({ pattern: pattern.name, start, end, rank });
    }
  }
  candidates.sort((a, b) => a.start - b.start || a.rank - b.rank || b.end - a.end);
  const findings: SecretFinding[] = [];
  for (const { pattern, start, end } of candidates) {
    const last = findings.at(-1);
    if (last && start < last.end) continue;
    findings.push({ pattern, start, end });
  }
  return findings;
}

/** The text with each finding replaced by `[REDACTED:<pattern>]`. */
export function redactSecrets(text: string, findings: readonly SecretFinding[]): string {
  let result = '';
  let at = 0;
  for (const finding of findings) {
    result += `${text.slice(at, finding.start)}[REDACTED:${finding.pattern}]`;
    at = finding.end;
  }
  return result + text.slice(at);
}
