/**
 * "1 memory", "3 memories": a count with its noun, for every message a person reads. One place,
 * so no message says "1 memories".
 */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** "1 memory", "n memories". */
export const memoriesCounted = (count: number) => counted(count, 'memory', 'memories');
