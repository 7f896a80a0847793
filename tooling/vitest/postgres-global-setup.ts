import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of a real PostgreSQL with pgvector, or null when none could be had (never under CI). */
    pgvectorTestUrl: string | null;
  }
}

const script = join(dirname(fileURLToPath(import.meta.url)), '..', 'scripts', 'pg-local.sh');

/**
 * Makes a real PostgreSQL + pgvector available to the storage suites: `PGVECTOR_TEST_URL` when
 * set (spec §2.5 lists it as the integration-test switch), otherwise the private cluster of
 * tooling/scripts/pg-local.sh, installed and started on demand. Under CI=true, no real
 * PostgreSQL is a failure; elsewhere the PostgreSQL half is skipped with a visible message.
 */
export default function setup(project: TestProject): void {
  const fromEnv = process.env.PGVECTOR_TEST_URL?.trim();
  if (fromEnv) {
    project.provide('pgvectorTestUrl', fromEnv);
    return;
  }
  try {
    const output = execFileSync('bash', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 600_000 });
    const url = output.trim().split('\n').at(-1) ?? '';
    if (!url.startsWith('postgres://')) throw new Error(`pg-local.sh printed no URL (got "${url}")`);
    project.provide('pgvectorTestUrl', url);
  } catch (error) {
    if (process.env.CI === 'true') {
      throw new Error(
        `CI needs a real PostgreSQL with pgvector and tooling/scripts/pg-local.sh could not provide one: ${(error as Error).message}`,
      );
    }
    console.warn(
      '\n[memsvc] No real PostgreSQL + pgvector: the PostgreSQL half of the storage tests is SKIPPED.\n' +
        `         Run ${script} (needs root or sudo to install) or set PGVECTOR_TEST_URL.\n`,
    );
    project.provide('pgvectorTestUrl', null);
  }
}
