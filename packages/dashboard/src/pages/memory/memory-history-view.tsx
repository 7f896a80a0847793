import type { AuditEntry } from '@memsvc/core';
import { shortTime } from '../../views/format.js';
import { CsrfField } from '../../views/layout.js';
import { type DiffPart, textDiff, textExcerpt } from './memory-diff.js';
import { fieldChanges, type MemoryVersion, metadataText, tagChanges } from './memory-history.js';
import { memoryPath } from './memory-paths.js';

/** Versions the history shows with their diffs; older ones are restored by number. */
export const VERSIONS_SHOWN = 10;
/** Characters a metadata diff shows (up to 64 KiB of JSON per version would not fit a page). */
const METADATA_DIFF_CHARS = 1500;
/** Audit entries the trail shows. */
export const AUDIT_ROWS_SHOWN = 50;

/** A diff as text: added words in <ins>, removed in <del>, left-out stretches as a note. Never HTML. */
export function DiffText(props: { parts: readonly DiffPart[] }) {
  return (
    <pre class="content diff">
      {props.parts.map((part) => {
        if (part.kind === 'added') return <ins>{part.text}</ins>;
        if (part.kind === 'removed') return <del>{part.text}</del>;
        if (part.kind === 'elided') return <span class="elided">{part.text}</span>;
        return part.text;
      })}
    </pre>
  );
}

interface HistoryProps {
  readonly basePath: string;
  readonly csrfToken: string;
  readonly memoryId: string;
  readonly currentVersion: number;
  /** Newest first. */
  readonly versions: readonly MemoryVersion[];
}

/**
 * The version history, newest first: who made each version and how, what changed from the
 * version before (content by words, metadata by lines, tags and flags as words), and a button
 * that makes an earlier version's content the newest version again.
 */
export function VersionHistory(props: HistoryProps) {
  const shown = props.versions.slice(0, VERSIONS_SHOWN);
  return (
    <div class="history">
      {shown.map((version, index) => (
        <VersionEntry {...props} version={version} previous={props.versions[index + 1]} />
      ))}
      {props.currentVersion > 1 ? (
        <form method="post" action={memoryPath(props.basePath, props.memoryId, 'restore')} class="actions">
          <CsrfField token={props.csrfToken} />
          <label>
            Restore an earlier version by number{' '}
            <input type="number" name="version" min={1} max={props.currentVersion - 1} required class="version-number" />
          </label>
          <button type="submit">Restore</button>
        </form>
      ) : null}
    </div>
  );
}

function VersionEntry(props: HistoryProps & { version: MemoryVersion; previous: MemoryVersion | undefined }) {
  const { version, previous } = props;
  const { snapshot } = version;
  const consecutive = previous !== undefined && previous.snapshot.version === snapshot.version - 1;
  const earlier = consecutive ? previous.snapshot : undefined;
  const fields = earlier ? fieldChanges(earlier, snapshot) : [];
  const tags = earlier ? tagChanges(earlier, snapshot) : { added: [], removed: [] };
  const content = earlier ? textDiff(earlier.content, snapshot.content, 'words') : textExcerpt(snapshot.content);
  const metadata = earlier ? textDiff(metadataText(earlier.metadata), metadataText(snapshot.metadata), 'lines', METADATA_DIFF_CHARS) : [];
  const unchanged =
    earlier && fields.length === 0 && tags.added.length + tags.removed.length === 0 && content.length === 0 && metadata.length === 0;
  return (
    <section class="version" aria-labelledby={`version-${snapshot.version}`}>
      <h3 id={`version-${snapshot.version}`}>
        Version {snapshot.version}{' '}
        <small>
          {version.action}
          {version.restoredFrom !== undefined ? ` of version ${version.restoredFrom}` : ''} by <code>{version.actor}</code>,{' '}
          {shortTime(version.at)}
          {snapshot.version === props.currentVersion ? ' (current)' : ''}
        </small>
      </h3>
      {earlier ? null : (
        <p class="muted">{snapshot.version === 1 ? 'The first version:' : 'The version before it is not in this history; its content:'}</p>
      )}
      {fields.length + tags.added.length + tags.removed.length > 0 ? (
        <ul class="changes">
          {fields.map((change) => (
            <li>
              {change.field}: <del>{change.before}</del> → <ins>{change.after}</ins>
            </li>
          ))}
          {tags.added.length > 0 ? (
            <li>
              tags added: <ins>{tags.added.join(', ')}</ins>
            </li>
          ) : null}
          {tags.removed.length > 0 ? (
            <li>
              tags removed: <del>{tags.removed.join(', ')}</del>
            </li>
          ) : null}
        </ul>
      ) : null}
      {content.length > 0 ? <DiffText parts={content} /> : null}
      {metadata.length > 0 ? (
        <>
          <p class="muted">Metadata:</p>
          <DiffText parts={metadata} />
        </>
      ) : null}
      {unchanged ? <p class="muted">What the memory says did not change (a bookkeeping version).</p> : null}
      {snapshot.version < props.currentVersion ? (
        <form method="post" action={memoryPath(props.basePath, props.memoryId, 'restore')}>
          <CsrfField token={props.csrfToken} />
          <input type="hidden" name="version" value={String(snapshot.version)} />
          <button type="submit">Restore version {snapshot.version}</button>
        </form>
      ) : null}
    </section>
  );
}

/** The audit trail, newest first: every change with the actor it is recorded under. */
export function AuditTrail(props: { entries: readonly AuditEntry[] }) {
  const shown = props.entries.slice(0, AUDIT_ROWS_SHOWN);
  return (
    <>
      <table class="audit">
        <caption class="sr-only">Audit trail, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Action</th>
            <th scope="col">Actor</th>
            <th scope="col">Version</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((entry) => (
            <tr>
              <td>{shortTime(entry.createdAt)}</td>
              <td>{entry.action}</td>
              <td>
                <code>{entry.actor}</code>
              </td>
              <td>{entry.version ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {props.entries.length > shown.length ? (
        <p class="muted">Older entries are not shown; an export with its audit has them all.</p>
      ) : null}
    </>
  );
}
