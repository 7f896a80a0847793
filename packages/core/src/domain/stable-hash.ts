const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;

/**
 * FNV-1a (64 bit) of a string's UTF-16 code units, as 16 hex digits: a stable, dependency-free
 * fingerprint for deriving ids (not for security). The same text gives the same hex everywhere.
 */
export function fnv1a64Hex(text: string): string {
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * FNV_PRIME) & MASK;
  }
  return hash.toString(16).padStart(16, '0');
}
