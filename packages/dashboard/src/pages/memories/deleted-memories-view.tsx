import type { MemoryRecord } from '@memsvc/core';
import { preview, shortTime } from '../../views/format.js';
import { CsrfField, Layout, Notice, type PageFrame } from '../../views/layout.js';
import { pageUrl } from '../../views/urls.js';
import { ActionProblem, ViewSwitch } from './memories-parts.js';
import { filterQuery, type MemoryFilters } from './memory-filters.js';

/** Everything the deleted memories page shows. */
export interface DeletedMemoriesView {
  readonly frame: PageFrame;
  readonly filters: MemoryFilters;
  readonly memories: readonly MemoryRecord[];
  readonly nextCursor: string | undefined;
  readonly notice?: { readonly text: string; readonly kind: 'ok' | 'error' } | undefined;
  /** Why the last restore did nothing, shown beside its button. */
  readonly problem?: string | undefined;
  readonly error?: string | undefined;
}

/**
 * `/memories?view=deleted`: the memories that were deleted and can still be restored, newest
 * first, each with its own Restore button, and several at once with the boxes.
 */
export function DeletedMemoriesPage(props: DeletedMemoriesView) {
  const { frame, filters, memories } = props;
  return (
    <Layout frame={frame} title="Deleted memories" section="memories">
      <ViewSwitch basePath={frame.basePath} current="deleted" />
      <Notice text={props.notice?.text} kind={props.notice?.kind} />
      <Notice text={props.error} kind="error" />
      <p>
        Agents do not see these. Restoring one brings it back as it was, as a new version; expired short-term memories and memories purged
        after the retention period are gone for good.
      </p>
      <form method="get" action={`${frame.basePath}/memories`} class="filters" aria-label="Filter deleted memories">
        <input type="hidden" name="view" value="deleted" />
        <label>
          Scope <input name="scope" value={filters.scope} maxlength={256} />
        </label>
        <label>
          Tags <input name="tags" value={filters.tags.join(',')} placeholder="all of: a,b" />
        </label>
        <button type="submit">Filter</button>
      </form>
      <form method="post" action={`${frame.basePath}/memories/restore`} id="restore">
        <CsrfField token={frame.csrfToken} />
        <input type="hidden" name="from" value="deleted" />
        <div class="table-box">
          <table class="memories deleted-memories">
            <caption class="sr-only">Deleted memories, newest first</caption>
            <thead>
              <tr>
                <th scope="col">
                  <input type="checkbox" data-select-all="ids" aria-label="Select every deleted memory on this page" />
                </th>
                <th scope="col">Memory</th>
                <th scope="col">Scope</th>
                <th scope="col">Tags</th>
                <th scope="col">Deleted</th>
                <th scope="col">
                  <span class="sr-only">Restore</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {memories.length === 0 ? (
                <tr>
                  <td colspan={6}>No deleted memories match these filters.</td>
                </tr>
              ) : (
                memories.map((memory) => (
                  <tr data-memory-id={memory.id}>
                    <td>
                      <input type="checkbox" name="ids" value={memory.id} aria-label={`Select deleted memory ${memory.id}`} />
                    </td>
                    <td class="memory-text">
                      <a href={`${frame.basePath}/memories/${memory.id}`}>{preview(memory.content)}</a>
                    </td>
                    <td>{memory.scope ?? '—'}</td>
                    <td>{memory.tags.join(', ')}</td>
                    <td>{shortTime(memory.deletedAt)}</td>
                    <td>
                      <button type="submit" name="only" value={memory.id} aria-label={`Restore ${preview(memory.content, 60)}`}>
                        Restore
                      </button>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        <div class="actions" id="bulk-actions">
          <button type="submit" class="primary">
            Restore selected
          </button>
          <ActionProblem text={props.problem} />
        </div>
      </form>
      {props.nextCursor ? (
        <p>
          <a rel="next" href={pageUrl(frame.basePath, '/memories', { ...filterQuery(filters), view: 'deleted', cursor: props.nextCursor })}>
            Older deleted memories →
          </a>
        </p>
      ) : null}
    </Layout>
  );
}
