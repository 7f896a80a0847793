import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** A module of the workspace and the modules it imports (relative ones resolved to files). */
export interface ModuleNode {
  readonly file: string;
  readonly localImports: readonly string[];
  readonly packageImports: readonly string[];
}

const SOURCE_FILE = /\.(ts|tsx)$/;
// Static imports and re-exports, type-only ones included: a type import is still an arrow
// a reader follows, and a circle of types is as hard to carry as one of values.
const IMPORT_SPECIFIER = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

export function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry);
    if (entry === 'node_modules' || entry === 'dist') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return SOURCE_FILE.test(entry) && !entry.endsWith('.d.ts') ? [path] : [];
  });
}

export function readModules(directory: string): ModuleNode[] {
  return sourceFiles(directory).map((file) => {
    const text = readFileSync(file, 'utf8');
    const localImports: string[] = [];
    const packageImports: string[] = [];
    for (const match of text.matchAll(IMPORT_SPECIFIER)) {
      const specifier = match[1] ?? match[2] ?? '';
      if (specifier.startsWith('.')) localImports.push(resolve(dirname(file), specifier).replace(/\.js$/, '.ts'));
      else packageImports.push(specifier);
    }
    return { file, localImports, packageImports };
  });
}

/** Every import circle among the modules, each as the files around it (Tarjan's strongly connected components). */
export function importCircles(modules: readonly ModuleNode[], root: string): string[][] {
  const edges = new Map(modules.map((module) => [module.file, module.localImports.filter((target) => target !== module.file)]));
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let counter = 0;
  const visit = (file: string): void => {
    index.set(file, counter);
    lowLink.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file) ?? []) {
      if (!edges.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        lowLink.set(file, Math.min(lowLink.get(file) ?? 0, lowLink.get(target) ?? 0));
      } else if (onStack.has(target)) {
        lowLink.set(file, Math.min(lowLink.get(file) ?? 0, index.get(target) ?? 0));
      }
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(relative(root, member));
    } while (member !== file);
    if (component.length > 1) circles.push(component.sort());
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return circles;
}

export function lineCount(files: readonly string[]): number {
  return files.reduce((total, file) => total + readFileSync(file, 'utf8').split('\n').length, 0);
}
