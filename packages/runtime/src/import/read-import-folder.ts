import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { isMemsvcError, MemsvcError } from '@memsvc/core';
import { AGENT_FILE_MAX_CHARS, type AgentFileSource, type ImportFile, selectFiles, type UnreadableFile } from '@memsvc/import-export';
import { readImportFile } from './read-import-file.js';
import { isInside, resolveImportPath } from './resolve-import-path.js';

/** An agent's files found under an import path, relative to `root`, and those that could not be read. */
export interface ImportFolder {
  /** The folder's real path: the ledger's name for it. */
  readonly root: string;
  readonly files: readonly ImportFile[];
  readonly unreadable: readonly UnreadableFile[];
  /** Every file path found under the root: a source may select a file by its neighbours. */
  readonly folderPaths: readonly string[];
}

/** More directory entries than a project's folder holds: the path is probably a home directory or a disk. */
export const MAX_LISTED_ENTRIES = 50_000;
/** More memory files than any agent keeps. */
export const MAX_IMPORT_FILES = 1_000;
/** A file of AGENT_FILE_MAX_CHARS characters is at most four bytes a character in UTF-8. */
const AGENT_FILE_MAX_BYTES = 4 * AGENT_FILE_MAX_CHARS;
/** Never walked: dependencies and version control. */
const NEVER_WALKED = new Set(['node_modules', '.git', '.hg', '.svn']);
/** The only dot-folders an agent keeps memory files in; others (caches, virtualenvs) are not walked. */
const AGENT_DOT_FOLDERS = new Set(['.claude', '.cursor', '.github', '.gemini', '.codex']);

/**
 * Finds and reads a source's files under `path` (issue 17): a folder, walked without following
 * symlinked folders, or one file (then its folder is the root). The path itself is confined to
 * `allowedRoot` like any import path; each selected file is read with the same refusals as one
 * file (symlinks resolved and confined, regular files only, size, binary, UTF-8), and a file that
 * fails is reported alone. INVALID_INPUT when the folder holds none of the source's files.
 */
export async function readImportFolder(path: string, source: AgentFileSource, allowedRoot: string | undefined): Promise<ImportFolder> {
  const real = await resolveImportPath(path, allowedRoot);
  const single = (await stat(real)).isFile();
  const root = single ? dirname(real) : real;
  const unreadable: UnreadableFile[] = [];
  const listed = single ? [basename(real)] : await listFolder(root, allowedRoot, unreadable);
  const selected = selectFiles(source, listed);
  if (selected.length > MAX_IMPORT_FILES) {
    throw new MemsvcError('INVALID_INPUT', `path holds ${selected.length} ${source} files; an import reads at most ${MAX_IMPORT_FILES}`, {
      field: 'path',
    });
  }
  const files: ImportFile[] = [];
  for (const file of selected) {
    try {
      const read = await readImportFile(join(root, ...file.split('/')), allowedRoot, AGENT_FILE_MAX_BYTES);
      files.push({ path: file, content: read.content });
    } catch (error) {
      if (!isMemsvcError(error)) throw error;
      unreadable.push({
        path: file,
        error: { code: error.code, message: error.message.replace(join(root, ...file.split('/')), file), data: error.data },
      });
    }
  }
  if (files.length === 0 && unreadable.length === 0) {
    throw new MemsvcError(
      'INVALID_INPUT',
      `path "${path}" holds no ${source} memory files (docs/import-sources.md lists what each source reads)`,
      {
        field: 'path',
      },
    );
  }
  return { root, files, unreadable, folderPaths: listed };
}

/** Every file under `root`, relative with `/`; symlinked folders are not followed, and reported when they lead outside the import root. */
async function listFolder(root: string, allowedRoot: string | undefined, unreadable: UnreadableFile[]): Promise<string[]> {
  const files: string[] = [];
  const pending = [root];
  let entries = 0;
  const confinedTo = allowedRoot === undefined ? undefined : await realpath(allowedRoot);
  while (pending.length > 0) {
    const folder = pending.pop() as string;
    const children: Dirent[] = await readdir(folder, { withFileTypes: true });
    entries += children.length;
    if (entries > MAX_LISTED_ENTRIES) {
      throw new MemsvcError('INVALID_INPUT', `path holds more than ${MAX_LISTED_ENTRIES} entries; point it at the project's folder`, {
        field: 'path',
      });
    }
    for (const child of children) {
      const full = join(folder, child.name);
      const relativePath = relative(root, full).split(sep).join('/');
      if (child.isDirectory()) {
        if (!NEVER_WALKED.has(child.name) && (!child.name.startsWith('.') || AGENT_DOT_FOLDERS.has(child.name))) pending.push(full);
      } else if (child.isSymbolicLink() && (await isFolder(full))) {
        const target = await realpath(full).catch(() => undefined);
        if (confinedTo !== undefined && target !== undefined && !isInside(confinedTo, target)) {
          const message = `folder "${relativePath}" is a symlink leading outside the import root (IMPORT_ALLOWED_ROOT); not read`;
          unreadable.push({ path: relativePath, error: { code: 'FORBIDDEN', message, data: { field: 'path' } } });
        }
      } else {
        files.push(relativePath);
      }
    }
  }
  return files;
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}
