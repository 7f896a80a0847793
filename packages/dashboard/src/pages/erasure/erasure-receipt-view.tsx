import { ERASURE_PLACES, type ErasureCheck, type ErasureCounts, type ErasureReceipt } from '@memsvc/core';
import { Layout, Notice, type PageFrame, type Section } from '../../views/layout.js';
import { erasurePath } from './erasure-paths.js';
import { ERASURE_PLACE_TEXT, memoriesText } from './erasure-places.js';

/** Ids a receipt lists: a whole user's erasure can take tens of thousands, and the digest covers every one. */
const IDS_SHOWN = 100;

/** Where a receipt or a check leads back to: the memories, or the Access page the whole-user erasure was asked on. */
export interface BackLink {
  readonly href: string;
  readonly text: string;
}

/**
 * What an erasure did, as the response to the erasure itself: the store keeps its record, but the
 * counts are shown this once (no port reads a receipt back), so the page says to keep it. Verify
 * checks the erasure again at any time by its id (a GET: it changes nothing).
 */
export function ErasureReceiptPage(props: { frame: PageFrame; section: Section; receipt: ErasureReceipt; back: BackLink }) {
  const { frame, receipt } = props;
  const count = receipt.memoryIds.length;
  const shown = receipt.memoryIds.slice(0, IDS_SHOWN);
  const done =
    receipt.state !== 'completed'
      ? 'The erasure is still under way: every memory it takes is hidden already, and erasing again finishes it.'
      : count === 0
        ? 'There were no memories to erase; the erasure is recorded all the same.'
        : `Erased for good: ${memoriesText(count)}, with every version, vector and index entry. Nothing of ${count === 1 ? 'it' : 'them'} can be restored.`;
  return (
    <Layout frame={frame} title="Erasure receipt" section={props.section}>
      <div class="erasure">
        <p>
          <a href={props.back.href}>{props.back.text}</a>
        </p>
        <Notice text={done} kind={receipt.state === 'completed' ? 'ok' : 'error'} />
        <p>This receipt is shown once: keep a copy. Verify checks, now or later, that nothing of these memories remains.</p>
        <dl class="facts receipt">
          <dt>Erasure id</dt>
          <dd>
            <code class="erasure-id">{receipt.erasureId}</code>
          </dd>
          <dt>Erased at</dt>
          <dd>
            <time datetime={receipt.erasedAt.toISOString()}>{receipt.erasedAt.toISOString()}</time>
          </dd>
          <dt>By</dt>
          <dd>{receipt.actor}</dd>
          <dt>State</dt>
          <dd class="state">{receipt.state}</dd>
          <dt>Memories</dt>
          <dd>
            {memoriesText(count)}
            {count > 0 ? (
              <details>
                <summary>{count > IDS_SHOWN ? `The first ${IDS_SHOWN} ids` : count === 1 ? 'Its id' : 'Their ids'}</summary>
                <ul class="erased-ids">
                  {shown.map((id) => (
                    <li>
                      <code>{id}</code>
                    </li>
                  ))}
                </ul>
              </details>
            ) : null}
          </dd>
          <dt>Digest</dt>
          <dd>
            <code class="digest">{receipt.digest}</code>
            <br />
            <small>SHA-256 of the erased ids, sorted, one per line.</small>
          </dd>
        </dl>
        <h2 id="counts-title">Removed, per place</h2>
        <CountsTable counts={receipt.counts} labelledBy="counts-title" column="Removed" />
        <VerifyButton frame={frame} erasureId={receipt.erasureId} label="Verify" />
      </div>
    </Layout>
  );
}

/** `/erasures/:id`: what a check of an erasure found just now. */
export function ErasureCheckPage(props: { frame: PageFrame; check: ErasureCheck; checkedAt: Date }) {
  const { frame, check } = props;
  const remaining = ERASURE_PLACES.reduce((sum, place) => sum + check.remaining[place], 0);
  const problems = [
    check.digestMatches ? undefined : 'its record no longer gives its digest',
    remaining === 0 ? undefined : `${remaining.toLocaleString('en-US')} entries of the erased memories remain (below)`,
  ].filter((problem) => problem !== undefined);
  const verdict = check.verified
    ? 'Verified: nothing of the erased memories remains anywhere, and the record still gives its digest.'
    : `Not verified: ${problems.length > 0 ? problems.join('; ') : 'the erasure is not complete yet'}.`;
  return (
    <Layout frame={frame} title="Erasure check" section="memories">
      <div class="erasure">
        <p>
          <a href={`${frame.basePath}/memories`}>← All memories</a>
        </p>
        <Notice text={verdict} kind={check.verified ? 'ok' : 'error'} />
        <dl class="facts receipt">
          <dt>Erasure id</dt>
          <dd>
            <code class="erasure-id">{check.erasureId}</code>
          </dd>
          <dt>Checked at</dt>
          <dd>
            <time datetime={props.checkedAt.toISOString()}>{props.checkedAt.toISOString()}</time>
          </dd>
          <dt>Verified</dt>
          <dd class="verified">{check.verified ? 'yes' : 'no'}</dd>
          <dt>Digest matches</dt>
          <dd class="digest-matches">{check.digestMatches ? 'yes' : 'no'}</dd>
        </dl>
        <h2 id="remaining-title">Remaining, per place</h2>
        <CountsTable counts={check.remaining} labelledBy="remaining-title" column="Remaining" />
        <VerifyButton frame={frame} erasureId={check.erasureId} label="Verify again" />
      </div>
    </Layout>
  );
}

function CountsTable(props: { counts: ErasureCounts; labelledBy: string; column: string }) {
  return (
    <table class="erasure-counts" aria-labelledby={props.labelledBy}>
      <thead>
        <tr>
          <th scope="col">Place</th>
          <th scope="col">{props.column}</th>
        </tr>
      </thead>
      <tbody>
        {ERASURE_PLACES.map((place) => (
          <tr data-place={place}>
            <th scope="row">{ERASURE_PLACE_TEXT[place]}</th>
            <td>{props.counts[place].toLocaleString('en-US')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A check reads and changes nothing, so it is a plain GET: no token, and a page that can be reloaded. */
function VerifyButton(props: { frame: PageFrame; erasureId: string; label: string }) {
  return (
    <form method="get" action={erasurePath(props.frame.basePath, props.erasureId)} class="actions verify">
      <button type="submit" class="primary">
        {props.label}
      </button>
      <small>Checks the database now: the rows, versions, vectors, index entries, links, import records and references.</small>
    </form>
  );
}
