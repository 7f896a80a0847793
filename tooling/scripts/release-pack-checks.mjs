// The checks release-pack.mjs runs on each tarball, on the files a user would receive: nothing
// in the manifest points back into the workspace, every bin and export exists, and every module
// imports only files inside the package, Node built-ins and the package's declared dependencies.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';

const DEPENDENCY_FIELDS = ['dependencies', 'optionalDependencies', 'peerDependencies'];
// Ranges only a workspace understands; pnpm pack rewrites them, so finding one means a packer bypassed it.
const WORKSPACE_RANGE = /^(workspace|catalog|link|file):/;
// tsup writes every static import at the start of a line; dynamic imports are found anywhere.
const STATIC_IMPORT = /^\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** Problems with one tarball, each naming the tarball; empty when it is fit to publish. */
export function checkTarball(tarball) {
  const scratch = mkdtempSync(join(tmpdir(), 'memsvc-release-check-'));
  try {
    execFileSync('tar', ['-xzf', tarball, '-C', scratch]);
    const packageDir = join(scratch, 'package');
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
    const problems = [...manifestProblems(manifest, packageDir), ...importProblems(manifest, packageDir)];
    return problems.map((problem) => `${basename(tarball)}: ${problem}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function manifestProblems(manifest, packageDir) {
  const problems = [];
  for (const field of DEPENDENCY_FIELDS) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (WORKSPACE_RANGE.test(range)) problems.push(`${field}.${name} is "${range}", which only the workspace can resolve`);
    }
  }
  const targets = [...Object.values(manifest.bin ?? {}), ...exportTargets(manifest.exports)];
  for (const target of targets) {
    if (!existsSync(join(packageDir, target)))
      problems.push(`${target} is named in bin/exports but not in the tarball (built? in "files"?)`);
  }
  return problems;
}

function exportTargets(exportsField) {
  if (exportsField === undefined || exportsField === null) return [];
  if (typeof exportsField === 'string') return exportsField.includes('*') ? [] : [exportsField];
  return Object.values(exportsField).flatMap(exportTargets);
}

function importProblems(manifest, packageDir) {
  const declared = new Set([manifest.name, ...DEPENDENCY_FIELDS.flatMap((field) => Object.keys(manifest[field] ?? {}))]);
  const problems = [];
  for (const file of javascriptFiles(packageDir)) {
    const where = relative(packageDir, file);
    for (const specifier of importSpecifiers(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier);
        if (!target.startsWith(`${packageDir}/`) || !existsSync(target)) problems.push(`${where} imports ${specifier}, not in the package`);
      } else if (!isBuiltin(specifier) && !declared.has(packageName(specifier))) {
        problems.push(`${where} imports ${specifier}, which is not among its dependencies`);
      }
    }
  }
  return problems;
}

function importSpecifiers(source) {
  const found = new Set();
  for (const match of source.matchAll(STATIC_IMPORT)) found.add(match[1] ?? match[2]);
  for (const match of source.matchAll(DYNAMIC_IMPORT)) found.add(match[1]);
  return found;
}

function javascriptFiles(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : javascriptFiles(path);
    return /\.(m?js)$/.test(entry.name) ? [path] : [];
  });
}

function isBuiltin(specifier) {
  return specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]);
}

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}
