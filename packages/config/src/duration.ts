const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/**
 * Parses a lifetime such as `7d`, `24h`, `30m`, `3600s` or a bare number of seconds (`3600`)
 * into whole seconds (spec §2.5 `JWT_EXPIRES_IN`). Returns undefined for anything else,
 * including zero and negative lifetimes, so the caller can name the variable in its error.
 */
export function parseDurationSeconds(text: string): number | undefined {
  const match = /^(\d+)\s*([smhd]?)$/i.exec(text.trim());
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = (match[2] ?? '').toLowerCase() || 's';
  const seconds = amount * (UNIT_SECONDS[unit] ?? Number.NaN);
  return Number.isSafeInteger(seconds) && seconds > 0 ? seconds : undefined;
}
