/**
 * A WAL position (`pg_lsn`, printed as `16/B374D848`: the high and low 32 bits in hex) as a
 * bigint, so positions of the primary and of a standby compare with `<` and subtract to bytes.
 */
export function parseWalPosition(text: string): bigint {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text.trim());
  if (!match) throw new Error(`not a WAL position: "${text}"`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}
