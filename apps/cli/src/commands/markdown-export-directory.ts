import { mkdir, mkdtemp, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { type ExportStore, MemsvcError, type TenantId } from '@memsvc/core';
import { type ExportRequest, type MarkdownNote, readMarkdownExportPage } from '@memsvc/import-export';

/**
 * Refuses an `--out` that holds something already: a markdown export fills a whole directory,
 * and mixing its notes with other files would leave no way to tell them apart. A missing or
 * empty directory is fine. Checked before the database is opened.
 */
export async function checkMarkdownTarget(out: string): Promise<void> {
  const found = await stat(out).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (found === undefined) return;
  if (!found.isDirectory() || (await readdir(out)).length > 0) {
    throw new MemsvcError('INVALID_INPUT', `--out must be a new or empty directory for --format markdown; "${out}" is not empty`, {
      field: '--out',
    });
  }
}

/**
 * Writes a tenant's markdown export (docs/export-format.md) into the directory `out`, one file
 * per note, page by page, so memory stays flat however many notes there are. The notes go to a
 * fresh directory beside `out` that is renamed into place only when every page is written: a
 * failed export never leaves a directory that looks complete. Returns how many notes it wrote.
 */
export async function writeMarkdownExport(
  exports: ExportStore,
  tenant: TenantId,
  request: ExportRequest,
  out: string,
  onPage: (total: number) => void,
): Promise<number> {
  await mkdir(dirname(resolve(out)), { recursive: true });
  const partial = await mkdtemp(join(dirname(resolve(out)), `${basename(out)}.partial-`));
  let total = 0;
  try {
    const folders = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await readMarkdownExportPage(exports, tenant, { ...request, cursor });
      for (const note of page.notes) await writeNote(partial, note, folders);
      total += page.count;
      onPage(total);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    await checkMarkdownTarget(out); // nothing appeared there meanwhile
    await rmdir(out).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await rename(partial, out);
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
  return total;
}

/**
 * Writes one note under `root`. Core builds note paths from safe characters only; the check
 * here is the file system's own guard, so a path can never leave the export's directory, and
 * `wx` fails rather than overwrite, so two notes can never silently share a file.
 */
async function writeNote(root: string, note: MarkdownNote, folders: Set<string>): Promise<void> {
  const segments = note.path.split('/');
  const file = resolve(root, ...segments);
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..') || !file.startsWith(`${resolve(root)}${sep}`)) {
    throw new MemsvcError('INTERNAL', `refusing to write a note outside the export directory: ${note.path}`);
  }
  const folder = dirname(file);
  if (!folders.has(folder)) {
    await mkdir(folder, { recursive: true });
    folders.add(folder); // one per tier: the set stays tiny however many notes there are
  }
  await writeFile(file, note.content, { flag: 'wx' });
}
