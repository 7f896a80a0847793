import type { MemoryRecord } from '@memsvc/core';
import { preview } from '../../views/format.js';
import { CsrfField, Layout, type PageFrame } from '../../views/layout.js';
import { memoriesCount } from './memories-notices.js';

/**
 * The question a bulk delete asks before it changes anything: how many memories, which ones, and
 * that they can be brought back. The answer posts the same ids again with `confirmed`.
 */
export function ConfirmDeletePage(props: { frame: PageFrame; memories: readonly MemoryRecord[]; back: string }) {
  const { frame, memories } = props;
  const count = memoriesCount(memories.length);
  return (
    <Layout frame={frame} title={`Delete ${count}?`} section="memories">
      <p>
        Agents will no longer see {memories.length === 1 ? 'this memory' : `these ${count}`}. Until they are purged, they can be restored
        from <a href={`${frame.basePath}/memories?view=deleted`}>Deleted memories</a>, and the next page offers to undo at once.
      </p>
      <form method="post" action={`${frame.basePath}/memories/delete`} class="confirm-delete">
        <CsrfField token={frame.csrfToken} />
        <input type="hidden" name="confirmed" value="1" />
        <ul class="to-delete">
          {memories.map((memory) => (
            <li>
              <input type="hidden" name="ids" value={memory.id} />
              {preview(memory.content, 120)}
            </li>
          ))}
        </ul>
        <p class="actions">
          <button type="submit" class="danger" autofocus>
            Delete {count}
          </button>
          <a href={props.back}>Cancel, keep them</a>
        </p>
      </form>
    </Layout>
  );
}
