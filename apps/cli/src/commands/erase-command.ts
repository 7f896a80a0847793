import { type CallContext, type ErasureCheck, type ErasureReceipt, MemsvcError, memoriesCounted } from '@memsvc/core';
import type { MemsvcStore } from '@memsvc/store-pg';
import type { CliContext } from '../cli-context.js';
import { userFlagOrLiteUser } from '../operator-flags.js';
import { withExistingOperatorRuntime } from '../operator-runtime.js';
import { formatInstant, formatTable, writeJsonLine } from '../text-output.js';
import { describeCompaction, POSTGRES_DISK_NOTE } from './erase-compact-command.js';

const APPLICATION_NAME = 'memsvc-erase';

/** The user whose memories are erased, through the runtime's engine and core's rules, audited as `operator:cli`. */
function asUser(cli: CliContext, user: string | undefined): CallContext {
  return { tenant: userFlagOrLiteUser(cli, user), actor: { id: 'operator:cli' } };
}

/** `memsvc erase memories`: erases memories of a user for good, in one transaction. */
export async function eraseMemoriesCommand(
  cli: CliContext,
  options: { readonly user?: string; readonly memory: readonly string[]; readonly json?: boolean },
): Promise<void> {
  const context = asUser(cli, options.user);
  await withExistingOperatorRuntime(cli, APPLICATION_NAME, async ({ engine, store }) => {
    printReceipt(cli, store, await engine.erase(context, options.memory), options.json);
  });
}

/** `memsvc erase user`: every memory of a user, in batches under one receipt; the user id typed twice. */
export async function eraseUserCommand(
  cli: CliContext,
  options: { readonly user: string; readonly confirm: string; readonly json?: boolean },
) {
  // Erasing a whole user names the user twice, on lite too: nothing here is taken by default.
  const context = asUser(cli, options.user);
  if (options.confirm !== options.user) {
    throw new MemsvcError('INVALID_INPUT', '--confirm must repeat the --user id: erasing a whole user cannot be undone', {
      field: '--confirm',
    });
  }
  await withExistingOperatorRuntime(cli, APPLICATION_NAME, async ({ engine, store }) => {
    printReceipt(cli, store, await engine.eraseAll(context), options.json);
  });
}

/** `memsvc erase verify`: checks an erasure against the database now; exits 1 when something remains. */
export async function verifyErasureCommand(
  cli: CliContext,
  erasureId: string,
  options: { readonly user?: string; readonly json?: boolean },
) {
  const context = asUser(cli, options.user);
  const check = await withExistingOperatorRuntime(cli, APPLICATION_NAME, ({ engine }) => engine.verifyErasure(context, erasureId));
  if (options.json) writeJsonLine(cli, { ...check, remaining: { ...check.remaining } });
  else cli.stdout.write(`${describeCheck(check)}\n`);
  if (!check.verified) {
    throw new MemsvcError('CONFLICT', `erasure ${erasureId} is not verified: something of its memories remains`, { field: '<erasureId>' });
  }
}

/**
 * The receipt, and what became of the erased text on disk: on a PGlite directory the erasure
 * compacted it (its report, R-ERASE-PGLITE-FILES); on PostgreSQL a note of what is the operator's.
 */
function printReceipt(cli: CliContext, store: MemsvcStore, receipt: ErasureReceipt, json: boolean | undefined): void {
  const compaction = store.compaction?.last;
  if (store.connection.engine === 'postgres') cli.stderr.write(`note: ${POSTGRES_DISK_NOTE}\n`);
  if (json) {
    writeJsonLine(cli, {
      ...receipt,
      erasedAt: receipt.erasedAt.toISOString(),
      counts: { ...receipt.counts },
      ...(compaction ? { compaction: { ...compaction } } : {}),
    });
    return;
  }
  cli.stdout.write(
    `erased ${memoriesCounted(receipt.memoryIds.length)} for good at ${formatInstant(receipt.erasedAt)} (erasure ${receipt.erasureId})\n` +
      `digest ${receipt.digest}\n` +
      `${formatTable(
        ['PLACE', 'REMOVED'],
        Object.entries(receipt.counts).map(([place, count]) => [place, String(count)]),
      )}\n`,
  );
  if (compaction) cli.stdout.write(`${describeCompaction(store, compaction)}\n`);
}

function describeCheck(check: ErasureCheck): string {
  const left = Object.entries(check.remaining).filter(([, count]) => count > 0);
  if (check.verified) return `erasure ${check.erasureId}: verified — nothing of its memories remains, and its digest matches`;
  return `erasure ${check.erasureId}: NOT verified — digest ${check.digestMatches ? 'matches' : 'does not match'}; remaining: ${
    left.map(([place, count]) => `${place} ${count}`).join(', ') || 'none'
  }`;
}
