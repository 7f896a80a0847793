/** The database engines the storage suites run on. */
export const TEST_ENGINES = ['pglite', 'postgres'] as const;
export type TestEngineName = (typeof TEST_ENGINES)[number];

/**
 * `TEST_MEMSVC_ENGINES` (a comma-separated list; both when unset) narrows the storage suites to
 * some engines. `.ci/run` uses it for its second runtime only: on Node 22 the storage suites run on
 * PostgreSQL, PGlite's share of them having run on Node 20 (it is most of their time), while
 * PGlite on Node 22 is still started by the end-to-end tests and the installed-release smoke.
 * A storage suite of an engine left out is reported as skipped, with this reason.
 */
export function engineLeftOut(name: TestEngineName, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const listed = env.TEST_MEMSVC_ENGINES?.trim();
  if (!listed) return undefined;
  const names = listed.split(',').map((entry) => entry.trim());
  const unknown = names.filter((entry) => !(TEST_ENGINES as readonly string[]).includes(entry));
  if (unknown.length > 0) throw new Error(`TEST_MEMSVC_ENGINES: unknown engine ${unknown.join(', ')} (known: ${TEST_ENGINES.join(', ')})`);
  return names.includes(name) ? undefined : `TEST_MEMSVC_ENGINES=${listed}`;
}
