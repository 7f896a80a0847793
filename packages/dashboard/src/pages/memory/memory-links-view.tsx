import type { MemoryLinkRecord } from '@memsvc/core';
import { score, shortTime } from '../../views/format.js';
import { isMemoryId, memoryPath } from './memory-paths.js';

/** What each relation means, read from the link's source to its target. */
const RELATION_TEXT: Readonly<Record<string, string>> = {
  contradicts: 'contradicts',
  supersedes: 'supersedes',
  'superseded-by': 'is superseded by',
  'duplicate-of': 'is a duplicate of',
  'relates-to': 'relates to',
  'derived-from': 'is derived from',
  'source-of': 'is the source of',
};

/**
 * The memory's links as pairs, in the direction they were recorded: this memory and the other
 * one, each end a link to its page (a link comes in both directions when a write recorded it
 * so, and then both rows show).
 */
export function LinksTable(props: { basePath: string; memoryId: string; links: readonly MemoryLinkRecord[] }) {
  const { basePath, memoryId } = props;
  if (props.links.length === 0) return <p>No links: no write or job has related this memory to another.</p>;
  const end = (id: string | null, locator: string) => {
    if (id === memoryId) return <strong>this memory</strong>;
    // Only a memory id ever goes into an href; an imported locator stays text.
    if (id !== null && isMemoryId(id)) return <a href={memoryPath(basePath, id)}>memory {id}</a>;
    return (
      <span>
        <code>{locator}</code> <small>(no longer stored)</small>
      </span>
    );
  };
  return (
    <table class="links">
      <caption class="sr-only">Links between this memory and others</caption>
      <thead>
        <tr>
          <th scope="col">From</th>
          <th scope="col">Relation</th>
          <th scope="col">To</th>
          <th scope="col">Similarity</th>
          <th scope="col">Made</th>
        </tr>
      </thead>
      <tbody>
        {props.links.map((link) => (
          <tr>
            <td>{end(link.sourceMemoryId, `id:${link.sourceMemoryId}`)}</td>
            <td>{Object.hasOwn(RELATION_TEXT, link.rel) ? RELATION_TEXT[link.rel] : link.rel}</td>
            <td>{end(link.targetMemoryId, link.targetLocator)}</td>
            <td>{link.score === null ? '—' : score(link.score)}</td>
            <td>
              {shortTime(link.createdAt)} <small>({link.origin === 'derived' ? 'by memsvc' : 'stated'})</small>
              {link.note ? <div class="note">{link.note}</div> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
