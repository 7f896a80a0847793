import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Projects whose files are long (processes killed and restarted, PostgreSQL clusters, embedded
 * databases opened in child processes), in the order they start.
 */
export const SLOW_PROJECTS: readonly string[] = ['worker', 'cli', 'server', 'store-pg', 'runtime', 'dashboard'];

/**
 * Vitest runs the projects one after another in alphabetical order, so the worker project's
 * 30-second file ran last, alone on one of the two workers while the other had nothing left
 * (25–33 s of every run). The slow projects go first and the projects of many short files last,
 * where they fill the tail; within a project Vitest's own order stands (longest first by its
 * cache of earlier runs, largest file first without one).
 */
export class SlowProjectsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification): number => {
      const index = SLOW_PROJECTS.indexOf(file.project.name);
      return index === -1 ? SLOW_PROJECTS.length : index;
    };
    // Array.prototype.sort is stable: files keep Vitest's order within their project.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
