import type { CorpusConsolidationResult, MemoryRecord } from '@memsvc/core';
import { preview, score } from '../../views/format.js';
import { CsrfField, Layout, Notice, type PageFrame } from '../../views/layout.js';
import { pageUrl } from '../../views/urls.js';
import { clusterField } from './review-forms.js';

/** A cluster of the dry run with its members' records, as the page shows it. */
export interface ShownCluster {
  readonly canonical: MemoryRecord;
  readonly losers: readonly { readonly memory: MemoryRecord; readonly similarity: number }[];
  readonly unionedTags: readonly string[];
}

export interface ConsolidationView {
  readonly frame: PageFrame;
  readonly dryRun: CorpusConsolidationResult;
  readonly clusters: readonly ShownCluster[];
  /** The cursor this dry run started from (sent back with the approval, so the same pass runs). */
  readonly cursor: string | undefined;
  readonly notice?: { kind: 'ok' | 'error'; text: string } | undefined;
}

/** `/review/consolidation`: a dry run of corpus consolidation in the viewer's tenant, and the approval of its clusters. */
export function ConsolidationPage(props: ConsolidationView) {
  const { frame, dryRun, clusters } = props;
  return (
    <Layout frame={frame} title="Consolidation" section="review">
      <Notice text={props.notice?.text} kind={props.notice?.kind} />
      <p>
        <a href={`${frame.basePath}/review`}>← Back to the review queue</a>
      </p>
      <p class="hint">
        A dry run over {dryRun.scanned} of your long-term memories found {dryRun.clusters} {dryRun.clusters === 1 ? 'group' : 'groups'} of
        near-duplicates. Approving merges the groups you tick: each keeps its most important memory (shown first), which gets every member's
        tags, and hides the others behind it (each can be brought back from its page by restoring its previous version). A group that
        changed after this page was made is left alone.
      </p>
      {clusters.length === 0 ? (
        <p>Nothing to merge here.</p>
      ) : (
        <form method="post" action={`${frame.basePath}/review/consolidation/approve`} data-confirm="Merge the selected groups?">
          <CsrfField token={frame.csrfToken} />
          {props.cursor ? <input type="hidden" name="cursor" value={props.cursor} /> : null}
          <p class="actions">
            <label>
              <input type="checkbox" data-select-all="cluster" checked /> Select every group
            </label>
          </p>
          {clusters.map((cluster, index) => (
            <ClusterCard frame={frame} cluster={cluster} index={index} />
          ))}
          <p class="actions">
            <button type="submit" class="primary">
              Approve: merge the selected groups
            </button>
          </p>
        </form>
      )}
      {dryRun.perClusterTruncated ? <p>More groups were found than are listed; approve these, then run the dry run again.</p> : null}
      {dryRun.cursor ? (
        <p>
          <a rel="next" href={pageUrl(frame.basePath, '/review/consolidation', { cursor: dryRun.cursor })}>
            Examine the next {dryRun.scanned} memories →
          </a>
        </p>
      ) : null}
    </Layout>
  );
}

function ClusterCard(props: { frame: PageFrame; cluster: ShownCluster; index: number }) {
  const { frame, cluster } = props;
  const memoryLink = (memory: MemoryRecord) => <a href={`${frame.basePath}/memories/${memory.id}`}>{preview(memory.content, 300)}</a>;
  const seen = {
    canonical: { id: cluster.canonical.id, version: cluster.canonical.version },
    losers: cluster.losers.map(({ memory }) => ({ id: memory.id, version: memory.version })),
  };
  return (
    <fieldset class="cluster">
      <legend>
        <input type="checkbox" name="cluster" value={clusterField(seen)} checked aria-label={`Merge group ${props.index + 1}`} /> Group{' '}
        {props.index + 1}: {cluster.losers.length + 1} memories
      </legend>
      <p>
        <strong>Keeps</strong> {memoryLink(cluster.canonical)}
      </p>
      <ul class="losers">
        {cluster.losers.map(({ memory, similarity }) => (
          <li>
            merges {memoryLink(memory)} <small>(similarity {score(similarity)})</small>
          </li>
        ))}
      </ul>
      {cluster.unionedTags.length > 0 ? <p class="side-meta">Tags after the merge: {cluster.unionedTags.join(', ')}</p> : null}
    </fieldset>
  );
}
