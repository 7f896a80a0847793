import { MemsvcError } from '@memsvc/core';
import type { CompactionReport, MemsvcStore, PgliteCompaction } from '@memsvc/store-pg';
import type { CliContext } from '../cli-context.js';
import { withExistingOperatorStore } from '../operator-store.js';
import { writeJsonLine } from '../text-output.js';

/**
 * What an erasure leaves on PostgreSQL's disks, and what only the operator can do about it: memsvc
 * talks to the server over SQL and can neither rewrite its WAL nor reach its replicas and backups.
 */
export const POSTGRES_DISK_NOTE =
  "on PostgreSQL the erased text stays in dead rows until VACUUM (FULL) of memsvc's tables and, once their statistics are " +
  'sampled again, of pg_catalog.pg_statistic; and in WAL segments, WAL archives, replicas and backups until they age out: ' +
  'see "Erasure for good" in docs/security.md';

/** The store's compaction, or a refusal that says why there is none to run. */
function compactionOf(store: MemsvcStore): PgliteCompaction {
  if (store.compaction) return store.compaction;
  if (store.connection.engine === 'postgres') {
    throw new MemsvcError('INVALID_INPUT', `memsvc cannot compact a PostgreSQL server's files: ${POSTGRES_DISK_NOTE}`);
  }
  throw new MemsvcError('INVALID_INPUT', 'an in-memory embedded database has no files to compact');
}

/** One line saying what a compaction did, for the erase commands' output. */
export function describeCompaction(store: MemsvcStore, report: CompactionReport): string {
  return (
    `compacted ${store.connection.description} in ${(report.durationMs / 1000).toFixed(1)} s (${report.tables} tables rewritten, ` +
    `${report.walSwitches} WAL segment switches): erased text is in no file of ${store.connection.embeddedDirectory}`
  );
}

/**
 * `memsvc erase compact`: on a PGlite directory, rewrites its files so that the text of erased
 * memories is in none of them. Every erasure runs it already; this runs it again after one whose
 * compaction failed, or for erasures made before memsvc compacted. Refused on PostgreSQL.
 */
export async function eraseCompactCommand(cli: CliContext, options: { readonly json?: boolean }): Promise<void> {
  await withExistingOperatorStore(cli, 'memsvc-erase', async (store) => {
    const report = await compactionOf(store).run();
    if (options.json) writeJsonLine(cli, report);
    else cli.stdout.write(`${describeCompaction(store, report)}\n`);
  });
}
