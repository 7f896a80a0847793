import { type AuditEntry, type ImportanceParts, MEMORY_LIMITS, type MemoryLinkRecord, type MemoryRecord } from '@memsvc/core';
import { shortTime } from '../../views/format.js';
import { CsrfField, Layout, Notice, type PageFrame } from '../../views/layout.js';
import { markersOf } from '../memories/memories-view.js';
import type { MemoryVersion } from './memory-history.js';
import { metadataText } from './memory-history.js';
import { AuditTrail, VersionHistory } from './memory-history-view.js';
import { ImportanceTable } from './memory-importance-view.js';
import { LinksTable } from './memory-links-view.js';
import { isMemoryId, memoryPath } from './memory-paths.js';

/** Characters of metadata JSON the page shows: 64 KiB of metadata would not fit a small page. */
const METADATA_SHOWN_CHARS = 8192;

export interface MemoryView {
  readonly frame: PageFrame;
  readonly memory: MemoryRecord;
  readonly importance: ImportanceParts;
  readonly halfLifeDays: number;
  readonly links: readonly MemoryLinkRecord[];
  /** Newest first. */
  readonly versions: readonly MemoryVersion[];
  /** Newest first. */
  readonly audit: readonly AuditEntry[];
  readonly notice?: { readonly text: string; readonly kind: 'ok' | 'error' } | undefined;
  /** After a refused edit: what the person typed, and why it was refused. */
  readonly draft?: { readonly content: string; readonly tags: readonly string[]; readonly error: string } | undefined;
}

/**
 * One memory: what it says (as text), its details and markers, its importance and what makes
 * it, the changes a person can make (edit under optimistic concurrency, pin, promote, delete,
 * restore, erase for good), its links, its versions with their diffs, and its audit trail.
 */
export function MemoryPage(props: MemoryView) {
  const { frame, memory } = props;
  const deleted = memory.deletedAt !== null;
  return (
    <Layout frame={frame} title={deleted ? 'Memory (deleted)' : 'Memory'} section="memories">
      <div class="memory-page">
        <p>
          <a href={`${frame.basePath}/memories`}>← All memories</a>
        </p>
        <Notice text={props.notice?.text} kind={props.notice?.kind} />
        {deleted ? (
          <form method="post" action={memoryPath(frame.basePath, memory.id, 'restore')} class="notice error actions deleted">
            <CsrfField token={frame.csrfToken} />
            <span>Deleted {shortTime(memory.deletedAt)}. Agents no longer see it; restoring brings it back as a new version.</span>
            <button type="submit" class="primary">
              Restore
            </button>
            <EraseLink basePath={frame.basePath} memoryId={memory.id} />
          </form>
        ) : null}

        <h2>Content</h2>
        <pre class="content">{memory.content}</pre>

        <div class="grid">
          <section class="card" aria-labelledby="details">
            <h2 id="details">Details</h2>
            <Details basePath={frame.basePath} memory={memory} />
          </section>
          <section class="card" aria-labelledby="importance">
            <h2 id="importance">Importance</h2>
            <ImportanceTable
              parts={props.importance}
              pinned={memory.pinned}
              storedScore={memory.importanceScore}
              halfLifeDays={props.halfLifeDays}
            />
          </section>
        </div>

        <h2>Metadata</h2>
        <Metadata memory={memory} />

        {deleted ? null : <Actions frame={frame} memory={memory} />}
        {deleted ? null : <EditForm frame={frame} memory={memory} draft={props.draft} />}

        <h2>Links</h2>
        <LinksTable basePath={frame.basePath} memoryId={memory.id} links={props.links} />

        <h2>History</h2>
        <VersionHistory
          basePath={frame.basePath}
          csrfToken={frame.csrfToken}
          memoryId={memory.id}
          currentVersion={memory.version}
          versions={props.versions}
        />

        <h2>Audit trail</h2>
        <AuditTrail entries={props.audit} />
      </div>
    </Layout>
  );
}

function Details(props: { basePath: string; memory: MemoryRecord }) {
  const { memory } = props;
  const markers = markersOf(memory);
  const supersededBy = memory.supersededBy;
  const replacedBy = memory.replacedBy;
  return (
    <dl class="facts">
      <dt>Id</dt>
      <dd>
        <code>{memory.id}</code>
      </dd>
      <dt>Tier</dt>
      <dd>{memory.tier === 'ltm' ? 'long-term' : `short-term, expires ${shortTime(memory.expiresAt)}`}</dd>
      <dt>Scope</dt>
      <dd>{memory.scope ?? '—'}</dd>
      <dt>Tags</dt>
      <dd>
        {memory.tags.length > 0 ? (
          <ul class="tags">
            {memory.tags.map((tag) => (
              <li>{tag}</li>
            ))}
          </ul>
        ) : (
          '—'
        )}
      </dd>
      <dt>Markers</dt>
      <dd>
        {markers.length > 0 ? markers.join(', ') : 'none'}
        {supersededBy && isMemoryId(supersededBy) ? (
          <>
            {' '}
            (by <a href={memoryPath(props.basePath, supersededBy)}>memory {supersededBy}</a>)
          </>
        ) : null}
        {replacedBy && isMemoryId(replacedBy) ? (
          <>
            {' '}
            (a newer memory changed its fact: <a href={memoryPath(props.basePath, replacedBy)}>memory {replacedBy}</a>)
          </>
        ) : null}
      </dd>
      <dt>Version</dt>
      <dd>{memory.version}</dd>
      <dt>Created</dt>
      <dd>{shortTime(memory.createdAt)}</dd>
      <dt>Updated</dt>
      <dd>{shortTime(memory.updatedAt)}</dd>
      <dt>Last read</dt>
      <dd>{shortTime(memory.lastAccessedAt)}</dd>
      <dt>Embedding</dt>
      <dd>{memory.hasEmbedding ? (memory.embeddingModel ?? 'yes') : 'none (found by its words only until it is re-embedded)'}</dd>
    </dl>
  );
}

function Metadata(props: { memory: MemoryRecord }) {
  const text = metadataText(props.memory.metadata);
  if (text === '{}') return <p>No metadata.</p>;
  const cut = text.length > METADATA_SHOWN_CHARS;
  return (
    <>
      <pre class="content metadata">{cut ? text.slice(0, METADATA_SHOWN_CHARS) : text}</pre>
      {cut ? (
        <p class="muted">
          The first {METADATA_SHOWN_CHARS.toLocaleString('en-US')} of {text.length.toLocaleString('en-US')} characters; an export has all of
          it.
        </p>
      ) : null}
    </>
  );
}

function Actions(props: { frame: PageFrame; memory: MemoryRecord }) {
  const { frame, memory } = props;
  return (
    <section aria-labelledby="actions">
      <h2 id="actions">Actions</h2>
      <div class="actions">
        <form method="post" action={memoryPath(frame.basePath, memory.id, 'pin')}>
          <CsrfField token={frame.csrfToken} />
          <input type="hidden" name="pinned" value={memory.pinned ? 'false' : 'true'} />
          <input type="hidden" name="expectedVersion" value={String(memory.version)} />
          <button type="submit">{memory.pinned ? 'Unpin' : 'Pin'}</button>
        </form>
        {memory.tier === 'stm' ? (
          <form method="post" action={memoryPath(frame.basePath, memory.id, 'promote')}>
            <CsrfField token={frame.csrfToken} />
            <button type="submit">Promote to long-term</button>
          </form>
        ) : null}
        <form
          method="post"
          action={memoryPath(frame.basePath, memory.id, 'delete')}
          data-confirm="Delete this memory? Agents will no longer see it; it can be restored from this page."
        >
          <CsrfField token={frame.csrfToken} />
          <button type="submit" class="danger">
            Delete
          </button>
        </form>
        <EraseLink basePath={frame.basePath} memoryId={memory.id} />
      </div>
    </section>
  );
}

/** To the page that says what erasing for good means and asks (erasure/confirm-erase-view.tsx); it changes nothing itself. */
function EraseLink(props: { basePath: string; memoryId: string }) {
  return (
    <a href={memoryPath(props.basePath, props.memoryId, 'erase')} class="erase-link">
      Erase for good…
    </a>
  );
}

function EditForm(props: { frame: PageFrame; memory: MemoryRecord; draft: MemoryView['draft'] }) {
  const { frame, memory, draft } = props;
  const content = draft?.content ?? memory.content;
  const tags = draft?.tags ?? memory.tags;
  return (
    <section aria-labelledby="edit">
      <h2 id="edit">Edit</h2>
      {draft ? <Notice text={`Not saved: ${draft.error}`} kind="error" /> : null}
      <form method="post" action={memoryPath(frame.basePath, memory.id, 'edit')} class="edit">
        <CsrfField token={frame.csrfToken} />
        <input type="hidden" name="expectedVersion" value={String(memory.version)} />
        <label for="edit-content">Content</label>
        {/* A leading newline: the HTML parser drops one, so content that starts with a line break keeps it. */}
        <textarea id="edit-content" name="content" required maxlength={MEMORY_LIMITS.contentMaxChars} rows={8}>
          {`\n${content}`}
        </textarea>
        <label for="edit-tags">Tags, one per line</label>
        <textarea id="edit-tags" name="tags" rows={3} class="tags-input">
          {`\n${tags.join('\n')}`}
        </textarea>
        <p class="actions">
          <button type="submit" class="primary">
            Save as version {memory.version + 1}
          </button>
          <small>If the memory changes before you save, nothing is overwritten: you get both texts to compare.</small>
        </p>
      </form>
    </section>
  );
}
