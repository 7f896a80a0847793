import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { MemsvcError } from '@memsvc/core';
import { IMPORT_MAX_FILE_BYTES } from '@memsvc/import-export';
import { resolveImportPath } from './resolve-import-path.js';

/** A file an import may read: its resolved path and its text. */
export interface ImportFileText {
  readonly path: string;
  readonly content: string;
}

/**
 * Reads one server-side import file (issue 17), refusing before a byte is read: a `..` segment,
 * a path whose real location (symlinks resolved, of the file and of every directory) is outside
 * `allowedRoot`, anything but a regular file (a FIFO would block the reader forever, a device
 * never ends) and a file over IMPORT_MAX_FILE_BYTES; then binary content (a NUL byte) and
 * invalid UTF-8. A relative path is taken from `allowedRoot`. Without `allowedRoot` (the
 * operator's CLI, which reads what its user can) only the confinement is skipped.
 */
export async function readImportFile(
  path: string,
  allowedRoot: string | undefined,
  maxBytes: number = IMPORT_MAX_FILE_BYTES,
): Promise<ImportFileText> {
  const real = await resolveImportPath(path, allowedRoot);
  const info = await stat(real);
  if (!info.isFile()) throw new MemsvcError('INVALID_INPUT', `path "${path}" is not a regular file`, { field: 'path' });
  checkSize(info.size, path, maxBytes);

  // O_NONBLOCK: were the file swapped for a FIFO since the stat, open() would not hang on it;
  // fstat on the handle then judges what was actually opened.
  const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw new MemsvcError('INVALID_INPUT', `path "${path}" is not a regular file`, { field: 'path' });
    checkSize(opened.size, path, maxBytes);
    const bytes = await handle.readFile();
    checkSize(bytes.byteLength, path, maxBytes);
    return { path: real, content: decodeImportText(bytes, path) };
  } finally {
    await handle.close();
  }
}

/** Text from bytes, refusing binary content and invalid UTF-8 (a silent U+FFFD would not round trip). */
export function decodeImportText(bytes: Uint8Array, path: string): string {
  if (bytes.includes(0)) throw new MemsvcError('INVALID_INPUT', `"${path}" is binary (it contains NUL bytes), not text`, { field: 'path' });
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new MemsvcError('INVALID_INPUT', `"${path}" is not valid UTF-8`, { field: 'path' });
  }
}

function checkSize(size: number, path: string, maxBytes: number): void {
  if (size > maxBytes) {
    throw new MemsvcError('INVALID_INPUT', `"${path}" is ${size} bytes; an import file may have at most ${maxBytes}`, {
      field: 'path',
    });
  }
}
