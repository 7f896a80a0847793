import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { MemsvcError } from '@memsvc/core';

/**
 * The real location of an import path (issue 17), refused before anything is read when it holds
 * a `..` segment or when its real location — symlinks resolved, of the entry and of every
 * directory above it — is outside `allowedRoot`. A relative path is taken from `allowedRoot`.
 * Without `allowedRoot` (the operator's CLI, which reads what its user can) only the
 * confinement is skipped.
 */
export async function resolveImportPath(path: string, allowedRoot: string | undefined): Promise<string> {
  if (path.split(/[\\/]/).includes('..')) {
    throw new MemsvcError('FORBIDDEN', `path must not contain ".." segments; got "${path}"`, { field: 'path' });
  }
  const requested = allowedRoot === undefined ? resolve(path) : resolve(allowedRoot, path);
  const real = await realpath(requested).catch((error: unknown) => {
    throw new MemsvcError('NOT_FOUND', `path "${path}" does not exist or cannot be read`, { field: 'path' }, { cause: error });
  });
  if (allowedRoot !== undefined && !isInside(await realpath(allowedRoot), real)) {
    throw new MemsvcError('FORBIDDEN', `path "${path}" resolves outside the import root (IMPORT_ALLOWED_ROOT)`, { field: 'path' });
  }
  return real;
}

/** Whether `path` is `root` or below it (both real paths). */
export function isInside(root: string, path: string): boolean {
  const inside = relative(root, path);
  return !(inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside));
}
