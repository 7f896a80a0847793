import type { ContradictedPair, DecayRules, FadingMemory, MemoryRecord } from '@memsvc/core';
import { preview, score, shortTime } from '../../views/format.js';
import { CsrfField, Layout, Notice, type PageFrame } from '../../views/layout.js';
import { pageUrl } from '../../views/urls.js';
import { seenField } from './review-forms.js';

/** Characters of a memory shown in a pair; the whole text is on the memory's page. */
const PAIR_PREVIEW = 400;

export interface ReviewView {
  readonly frame: PageFrame;
  readonly pairs: readonly ContradictedPair[];
  readonly pairsCursor: string | undefined;
  readonly nextPairs: string | undefined;
  readonly fading: readonly FadingMemory[];
  readonly fadingCursor: string | undefined;
  readonly nextFading: string | undefined;
  readonly rules: DecayRules;
  readonly notice?: { kind: 'ok' | 'error'; text: string } | undefined;
}

/** `/review`: contradicted pairs side by side, then the stale and prune-eligible memories, then the way to consolidation. */
export function ReviewPage(props: ReviewView) {
  const { frame } = props;
  return (
    <Layout frame={frame} title="Review" section="review">
      <Notice text={props.notice?.text} kind={props.notice?.kind} />
      <nav aria-label="On this page" class="review-toc">
        <a href="#contradictions">Contradictions</a> <a href="#fading">Stale and prune-eligible</a>{' '}
        <a href="#consolidation">Consolidation</a>
      </nav>

      <section aria-labelledby="contradictions">
        <h2 id="contradictions">Contradictions</h2>
        <p class="hint">
          Pairs of memories your agents wrote that say nearly the same thing differently. Keep both when both hold; otherwise keep the one
          that is right and the other is deleted (restorable from its page).
        </p>
        {props.pairs.length === 0 ? (
          <p>No open contradictions.</p>
        ) : (
          props.pairs.map((pair, index) => <PairCard frame={frame} pair={pair} index={index} />)
        )}
        <Pager
          frame={frame}
          current={props.pairsCursor}
          next={props.nextPairs}
          query={(cursor) => ({ pairs: cursor, fading: props.fadingCursor })}
          anchor="contradictions"
          label="More contradictions"
        />
      </section>

      <section aria-labelledby="fading">
        <h2 id="fading">Stale and prune-eligible</h2>
        <p class="hint">
          Long-term memories whose importance has faded: stale at or below {score(props.rules.staleScoreThreshold)}; the decay scan deletes
          those below {score(props.rules.pruneScoreThreshold)} that are older than {props.rules.pruneOlderThanDays} days and not pinned.
          Open one to pin or edit it, or delete what you no longer need.
        </p>
        <FadingTable frame={frame} rows={props.fading} />
        <Pager
          frame={frame}
          current={props.fadingCursor}
          next={props.nextFading}
          query={(cursor) => ({ pairs: props.pairsCursor, fading: cursor })}
          anchor="fading"
          label="More memories"
        />
      </section>

      <section aria-labelledby="consolidation">
        <h2 id="consolidation">Consolidation</h2>
        <p class="hint">
          Near-duplicates among your long-term memories can merge into one: the others are hidden behind it, with their tags joined. A dry
          run shows what would merge; nothing changes until you approve it.
        </p>
        <p>
          <a href={`${frame.basePath}/review/consolidation`}>Show what would merge (dry run) →</a>
        </p>
      </section>
    </Layout>
  );
}

function PairCard(props: { frame: PageFrame; pair: ContradictedPair; index: number }) {
  const { frame, pair } = props;
  const titleId = `pair-${props.index}`;
  return (
    <article class="pair" aria-labelledby={titleId}>
      <h3 id={titleId}>
        Found {shortTime(pair.foundAt)}
        {pair.similarity === null ? '' : ` · similarity ${score(pair.similarity)}`}
      </h3>
      <div class="pair-sides">
        <PairSide frame={frame} label="Newer" memory={pair.newer} />
        <PairSide frame={frame} label="Older" memory={pair.older} />
      </div>
      <form method="post" action={`${frame.basePath}/review/contradictions/resolve`} class="actions">
        <CsrfField token={frame.csrfToken} />
        <input type="hidden" name="newer" value={seenField(pair.newer)} />
        <input type="hidden" name="older" value={seenField(pair.older)} />
        <button type="submit" name="outcome" value="keep-both">
          Keep both
        </button>
        <button type="submit" name="outcome" value="keep-newer" class="danger">
          Keep newer, delete older
        </button>
        <button type="submit" name="outcome" value="keep-older" class="danger">
          Keep older, delete newer
        </button>
      </form>
    </article>
  );
}

function PairSide(props: { frame: PageFrame; label: string; memory: MemoryRecord }) {
  const { memory } = props;
  return (
    <div class="side">
      <p class="side-head">
        <strong>{props.label}</strong> · {shortTime(memory.createdAt)} · {memory.tier}
        {memory.contradicted ? ' · marked contradicted' : ''}
      </p>
      <p class="content">{preview(memory.content, PAIR_PREVIEW)}</p>
      <p class="side-meta">
        {memory.scope ? `scope ${memory.scope} · ` : ''}
        {memory.tags.length > 0 ? `tags ${memory.tags.join(', ')} · ` : ''}
        version {memory.version} · <a href={`${props.frame.basePath}/memories/${memory.id}`}>Open the {props.label.toLowerCase()} memory</a>
      </p>
    </div>
  );
}

function FadingTable(props: { frame: PageFrame; rows: readonly FadingMemory[] }) {
  const { frame, rows } = props;
  if (rows.length === 0) return <p>Nothing stale on this page.</p>;
  return (
    <form method="post" action={`${frame.basePath}/review/fading/delete`} id="fading-delete">
      <CsrfField token={frame.csrfToken} />
      <table class="fading">
        <caption class="sr-only">Stale and prune-eligible memories, lowest importance first</caption>
        <thead>
          <tr>
            <th scope="col">
              <input type="checkbox" data-select-all="ids" aria-label="Select every memory in this list" />
            </th>
            <th scope="col">Memory</th>
            <th scope="col">Importance now</th>
            <th scope="col">Status</th>
            <th scope="col">Created</th>
            <th scope="col">Last read</th>
            <th scope="col">
              <span class="sr-only">Delete</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ memory, score: value, pruneEligible }) => (
            <tr>
              <td>
                <input type="checkbox" name="ids" value={memory.id} aria-label={`Select memory ${memory.id}`} />
              </td>
              <td>
                <a id={`fading-${memory.id}`} href={`${frame.basePath}/memories/${memory.id}`}>
                  {preview(memory.content)}
                </a>
              </td>
              <td>{score(value)}</td>
              <td>{pruneEligible ? 'prune-eligible' : 'stale'}</td>
              <td>{shortTime(memory.createdAt)}</td>
              <td>{shortTime(memory.lastAccessedAt)}</td>
              <td>
                <button type="submit" name="only" value={memory.id} class="danger" aria-describedby={`fading-${memory.id}`}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="actions">
        <button type="submit" class="danger">
          Delete selected
        </button>{' '}
        <small>Deleted memories can be restored from their page.</small>
      </p>
    </form>
  );
}

/** "First page" and "next page" links of one list, keeping the other list where it is. */
function Pager(props: {
  frame: PageFrame;
  current: string | undefined;
  next: string | undefined;
  query: (cursor: string | undefined) => Record<string, string | undefined>;
  anchor: string;
  label: string;
}) {
  if (!props.current && !props.next) return null;
  const href = (cursor: string | undefined) => `${pageUrl(props.frame.basePath, '/review', props.query(cursor))}#${props.anchor}`;
  return (
    <p class="pager">
      {props.current ? <a href={href(undefined)}>← Back to the start</a> : null}{' '}
      {props.next ? (
        <a rel="next" href={href(props.next)}>
          {props.label} →
        </a>
      ) : null}
    </p>
  );
}
