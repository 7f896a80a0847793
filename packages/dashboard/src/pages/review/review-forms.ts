import { CONTRADICTION_OUTCOMES, type ContradictionOutcome, type SeenCluster, type SeenMemory } from '@memsvc/core';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SEEN = /^([0-9a-f-]{36})@([1-9][0-9]{0,8})$/;
/** Most members a cluster field carries; a dry run's clusters are far smaller (a seed's ten neighbours, joined). */
const CLUSTER_MEMBERS_MAX = 200;

/** A form's fields as Hono's `parseBody({ all: true })` gives them. */
export type FormFields = Record<string, string | File | (string | File)[]>;

/** Every string value of a field, repeated or not. */
export function values(form: FormFields, name: string): string[] {
  return [form[name] ?? []].flat().filter((value): value is string => typeof value === 'string');
}

/** A field's one string value, or undefined. */
export function value(form: FormFields, name: string): string | undefined {
  return values(form, name)[0];
}

/** Memory ids among a field's values (anything else is dropped, never an error page). */
export function memoryIds(form: FormFields, name: string): string[] {
  return values(form, name).filter((id) => UUID.test(id));
}

/** A memory as a form carries it: `<id>@<version>`. */
export function seenField(memory: SeenMemory): string {
  return `${memory.id}@${memory.version}`;
}

export function parseSeen(text: string | undefined): SeenMemory | undefined {
  const match = SEEN.exec(text ?? '');
  return match?.[1] && UUID.test(match[1]) ? { id: match[1], version: Number(match[2]) } : undefined;
}

/** The decision on a contradicted pair: the two memories as shown and the button pressed. */
export function parseResolution(form: FormFields): { pair: [SeenMemory, SeenMemory]; outcome: ContradictionOutcome } | undefined {
  const [first, second] = [parseSeen(value(form, 'newer')), parseSeen(value(form, 'older'))];
  const outcome = value(form, 'outcome');
  if (!first || !second || !(CONTRADICTION_OUTCOMES as readonly string[]).includes(outcome ?? '')) return undefined;
  return { pair: [first, second], outcome: outcome as ContradictionOutcome };
}

/** A cluster as its checkbox carries it: the canonical memory, then the ones merging into it, `~`-separated. */
export function clusterField(cluster: SeenCluster): string {
  return [cluster.canonical, ...cluster.losers].map(seenField).join('~');
}

export function parseCluster(text: string): SeenCluster | undefined {
  const parts = text.split('~');
  if (parts.length < 2 || parts.length > CLUSTER_MEMBERS_MAX) return undefined;
  const members = parts.map(parseSeen);
  const [canonical, ...losers] = members;
  if (!canonical || losers.some((loser) => loser === undefined)) return undefined;
  return { canonical, losers: losers as SeenMemory[] };
}
