import { MEMORY_MARKERS, type MemoryRecord } from '@memsvc/core';
import { preview, score, shortTime } from '../../views/format.js';
import { CsrfField, Layout, Notice, type PageFrame } from '../../views/layout.js';
import { pageUrl } from '../../views/urls.js';
import { ActionProblem, UndoNotice, ViewSwitch } from './memories-parts.js';
import { filterQuery, type MemoryFilters } from './memory-filters.js';

export interface MemoryRow {
  readonly memory: MemoryRecord;
  /** The recall score, on a search. */
  readonly score?: number;
}

export interface MemoriesView {
  readonly frame: PageFrame;
  readonly filters: MemoryFilters;
  readonly rows: readonly MemoryRow[];
  readonly nextCursor: string | undefined;
  readonly notice?: { readonly text: string; readonly kind: 'ok' | 'error' } | undefined;
  /** What the last bulk delete took, to offer its undo. */
  readonly deleted?: { readonly count: number; readonly ids: readonly string[] } | undefined;
  /** Why the last bulk action did nothing, shown beside its button. */
  readonly problem?: string | undefined;
  readonly error?: string | undefined;
}

/** Markers a memory carries, as short labels. */
export function markersOf(memory: MemoryRecord): string[] {
  return [
    ...(memory.pinned ? ['pinned'] : []),
    ...(memory.stale ? ['stale'] : []),
    ...(memory.contradicted ? ['contradicted'] : []),
    ...(memory.supersededBy ? ['superseded'] : []),
    // A newer memory changed its fact (R-FACT-WRITE): kept and visible, labelled as agents see it.
    ...(memory.replacedBy ? ['probably outdated'] : []),
  ];
}

/** The memories page: search (the agents' recall, with scores), filters, paging and bulk delete. */
export function MemoriesPage(props: MemoriesView) {
  const { frame, filters, rows } = props;
  const searching = filters.q !== '';
  return (
    <Layout frame={frame} title="Memories" section="memories">
      <ViewSwitch basePath={frame.basePath} current="live" />
      {props.deleted ? (
        <UndoNotice basePath={frame.basePath} csrfToken={frame.csrfToken} deleted={props.deleted.count} undo={props.deleted.ids} />
      ) : null}
      <Notice text={props.notice?.text} kind={props.notice?.kind} />
      <Notice text={props.error} kind="error" />
      <form method="get" action={`${frame.basePath}/memories`} class="filters" aria-label="Search and filter">
        <label>
          Search <input type="search" name="q" value={filters.q} maxlength={2048} placeholder="what do your agents remember about…" />
        </label>
        <label>
          Tier
          <select name="tier">
            <option value="">both</option>
            <option value="ltm" selected={filters.tier === 'ltm'}>
              long-term
            </option>
            <option value="stm" selected={filters.tier === 'stm'}>
              short-term
            </option>
          </select>
        </label>
        <label>
          Scope <input name="scope" value={filters.scope} maxlength={256} />
        </label>
        <label>
          Tags <input name="tags" value={filters.tags.join(',')} placeholder="all of: a,b" />
        </label>
        <label>
          Marker
          <select name="marker">
            <option value="">any</option>
            {MEMORY_MARKERS.map((marker) => (
              <option value={marker} selected={filters.marker === marker}>
                {marker}
              </option>
            ))}
          </select>
        </label>
        <label>
          From <input type="date" name="from" value={filters.from} />
        </label>
        <label>
          To <input type="date" name="to" value={filters.to} />
        </label>
        <button type="submit">{searching ? 'Search' : 'Filter'}</button>
      </form>

      <form method="post" action={`${frame.basePath}/memories/delete`} id="bulk">
        <CsrfField token={frame.csrfToken} />
        <div class="table-box">
          <table class="memories">
            <caption class="sr-only">{searching ? 'Search results, best first' : 'Memories, newest first'}</caption>
            <thead>
              <tr>
                <th scope="col">
                  <input type="checkbox" data-select-all="ids" aria-label="Select every memory on this page" />
                </th>
                <th scope="col">Memory</th>
                <th scope="col">Tier</th>
                <th scope="col">Scope</th>
                <th scope="col">Tags</th>
                <th scope="col">Markers</th>
                <th scope="col">Updated</th>
                {searching ? <th scope="col">Score</th> : null}
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colspan={searching ? 8 : 7}>{searching ? 'Nothing matches this search.' : 'No memories match these filters.'}</td>
                </tr>
              ) : (
                rows.map(({ memory, score: value }) => (
                  <tr>
                    <td>
                      <input type="checkbox" name="ids" value={memory.id} aria-label={`Select memory ${memory.id}`} />
                    </td>
                    <td class="memory-text">
                      <a href={`${frame.basePath}/memories/${memory.id}`}>{preview(memory.content)}</a>
                    </td>
                    <td data-label="Tier">{memory.tier}</td>
                    <td data-label="Scope">{memory.scope ?? '—'}</td>
                    <td data-label="Tags">{memory.tags.join(', ')}</td>
                    <td data-label="Markers" class="markers">
                      {markersOf(memory).join(', ')}
                    </td>
                    <td data-label="Updated">{shortTime(memory.updatedAt)}</td>
                    {searching ? <td data-label="Score">{value === undefined ? '' : score(value)}</td> : null}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        <div class="actions" id="bulk-actions">
          <button type="submit" class="danger">
            Delete selected…
          </button>
          <small>
            You are asked first; deleted memories can be restored from{' '}
            <a href={`${frame.basePath}/memories?view=deleted`}>Deleted memories</a>.
          </small>
          <ActionProblem text={props.problem} />
        </div>
      </form>
      {props.nextCursor ? (
        <p>
          <a rel="next" href={pageUrl(frame.basePath, '/memories', { ...filterQuery(filters), cursor: props.nextCursor })}>
            Older memories →
          </a>
        </p>
      ) : null}
    </Layout>
  );
}
