/**
 * `openStore`'s option that makes a new PGlite database start from the test run's template
 * (MEMSVC_CACHE_DIR, set by preset.ts) instead of initdb and the migrations, kept decompressed in
 * the test worker between databases; empty outside a Vitest project. Tests of initdb and of the
 * template itself leave it out.
 */
export function testTemplates(): { readonly pgliteTemplates?: { readonly directory: string; readonly keepInMemory: true } } {
  const directory = process.env.MEMSVC_CACHE_DIR;
  return directory ? { pgliteTemplates: { directory, keepInMemory: true } } : {};
}
