/**
 * The text whose hash identifies "the same memory" for exact-duplicate collapse, which must work
 * even when no vector exists (DESIGN §3). Case, surrounding space and runs of white space do not
 * make a memory different; anything else does. Adapters hash this with SHA-256.
 */
export function contentFingerprintText(content: string): string {
  return content.normalize('NFC').trim().replace(/\s+/gu, ' ').toLowerCase();
}
