import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { MEMORY_TIERS, type MemoryTier, MemsvcError, memoriesCounted, systemClock, type TenantId } from '@memsvc/core';
import { EXPORT_MAX_LIMIT, type ExportRequest, planExport, planMarkdownExport, readExportPage } from '@memsvc/import-export';

import type { CliContext } from '../cli-context.js';
import { userFlagOrLiteUser } from '../operator-flags.js';
import { withExistingOperatorStore } from '../operator-store.js';
import { checkMarkdownTarget, writeMarkdownExport } from './markdown-export-directory.js';

const APPLICATION_NAME = 'memsvc-export';
/** Memories read per round trip: large pages amortise the three statements, bounded memory keeps it flat. */
const PAGE_SIZE = 1000;
/** What `--format` takes: the lossless interchange (the default), or notes to read. */
const EXPORT_FORMATS = ['jsonl', 'markdown'] as const;

/** The options of `memsvc export`, as commander hands them over. */
export interface ExportOptions {
  readonly user?: string;
  readonly format?: string;
  readonly out?: string;
  readonly tier?: string;
  readonly scope?: string;
  readonly tags?: string;
  readonly createdFrom?: string;
  readonly createdTo?: string;
  readonly includeDeleted?: boolean;
  readonly includeSuperseded?: boolean;
  readonly includeHistory?: boolean;
  readonly includeAudit?: boolean;
  readonly includeVectors?: boolean;
  readonly pageSize?: string;
}

/**
 * `memsvc export`: one tenant's memories (docs/export-format.md), page by page, so the memory it
 * takes stays flat however many memories there are: JSONL to stdout or to `--out`, or with
 * `--format markdown` one note per memory under the directory `--out`. Every flag is checked
 * before the database is opened; the output is written beside its target and renamed into
 * place at the end, so a failed export never leaves a file or directory that looks complete.
 */
export async function exportCommand(cli: CliContext, options: ExportOptions): Promise<void> {
  const tenant = userFlagOrLiteUser(cli, options.user);
  const format = parseFormat(options.format ?? 'jsonl');
  const request = exportRequestOf(options);
  if (format === 'markdown') {
    if (options.out === undefined) {
      throw new MemsvcError('INVALID_INPUT', '--format markdown writes one file per memory: give a directory with --out <dir>', {
        field: '--out',
      });
    }
    planMarkdownExport(request); // every remaining flag is checked now, before the database is opened
    await checkMarkdownTarget(options.out);
    return exportMarkdown(cli, tenant, request, options.out);
  }
  planExport(request); // every remaining flag is checked now, before the database is opened
  return exportJsonl(cli, tenant, request, options.out);
}

async function exportMarkdown(cli: CliContext, tenant: TenantId, request: ExportRequest, out: string): Promise<void> {
  await withExistingOperatorStore(cli, APPLICATION_NAME, async (store) => {
    const total = await writeMarkdownExport(store.exports, tenant, request, out, (written) =>
      cli.stderr.write(`exported ${memoriesCounted(written)}\n`),
    );
    cli.stderr.write(`done: ${memoriesCounted(total)} of ${tenant} written as markdown notes to ${out}\n`);
  });
}

async function exportJsonl(cli: CliContext, tenant: TenantId, request: ExportRequest, out: string | undefined): Promise<void> {
  await withExistingOperatorStore(cli, APPLICATION_NAME, async (store) => {
    const partial = out === undefined ? undefined : `${out}.partial`;
    const output: Writable = partial === undefined ? cli.stdout : createWriteStream(partial, { flags: 'w' });
    const now = systemClock.now();
    let total = 0;
    try {
      let cursor: string | undefined;
      do {
        const page = await readExportPage(store.exports, tenant, { ...request, cursor }, now);
        if (page.lines.length > 0) await write(output, `${page.lines.join('\n')}\n`);
        total += page.count;
        cli.stderr.write(`exported ${memoriesCounted(total)}\n`);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      if (partial !== undefined && out !== undefined) {
        await close(output);
        await rename(partial, out);
      }
    } catch (error) {
      if (partial !== undefined) {
        output.destroy();
        await rm(partial, { force: true });
      }
      throw error;
    }
    cli.stderr.write(`done: ${memoriesCounted(total)} of ${tenant}${out ? ` written to ${out}` : ''}\n`);
  });
}

function parseFormat(value: string): (typeof EXPORT_FORMATS)[number] {
  if (!(EXPORT_FORMATS as readonly string[]).includes(value)) {
    throw new MemsvcError('INVALID_INPUT', `--format must be one of: ${EXPORT_FORMATS.join(', ')}; got "${value}"`, { field: '--format' });
  }
  return value as (typeof EXPORT_FORMATS)[number];
}

function exportRequestOf(options: ExportOptions): ExportRequest {
  return {
    tier: options.tier === undefined ? undefined : parseTier(options.tier),
    scope: options.scope,
    tags: options.tags?.split(',').map((tag) => tag.trim()),
    createdFrom: options.createdFrom === undefined ? undefined : parseDate(options.createdFrom, '--created-from'),
    createdTo: options.createdTo === undefined ? undefined : parseDate(options.createdTo, '--created-to'),
    includeDeleted: options.includeDeleted,
    includeSuperseded: options.includeSuperseded,
    includeHistory: options.includeHistory,
    includeAudit: options.includeAudit,
    includeVectors: options.includeVectors,
    limit: options.pageSize === undefined ? PAGE_SIZE : parsePageSize(options.pageSize),
  };
}

function parseTier(value: string): MemoryTier {
  if (!(MEMORY_TIERS as readonly string[]).includes(value)) {
    throw new MemsvcError('INVALID_INPUT', `--tier must be one of: ${MEMORY_TIERS.join(', ')}; got "${value}"`, { field: '--tier' });
  }
  return value as MemoryTier;
}

function parseDate(value: string, flag: string): Date {
  const date = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim()) ? new Date(value.trim()) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) {
    throw new MemsvcError('INVALID_INPUT', `${flag} must be an ISO 8601 date (2026-05-01) or date-time; got "${value}"`, { field: flag });
  }
  return date;
}

function parsePageSize(value: string): number {
  const size = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(size) || size < 1 || size > EXPORT_MAX_LIMIT) {
    throw new MemsvcError('INVALID_INPUT', `--page-size must be a whole number from 1 to ${EXPORT_MAX_LIMIT}; got "${value}"`, {
      field: '--page-size',
    });
  }
  return size;
}

/** Writes and waits when the stream asks to (a slow pipe must not make the export buffer everything). */
function write(output: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const ready = output.write(text, (error) => {
      if (error) reject(error);
    });
    if (ready) resolve();
    else {
      output.once('drain', resolve);
      output.once('error', reject);
    }
  });
}

function close(output: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    output.once('error', reject);
    output.end(() => resolve());
  });
}
