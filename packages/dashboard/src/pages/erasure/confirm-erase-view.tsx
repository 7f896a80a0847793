import type { ErasureOfMemory, MemoryRecord } from '@memsvc/core';
import { preview } from '../../views/format.js';
import { CsrfField, Layout, type PageFrame } from '../../views/layout.js';
import { memoryPath } from '../memory/memory-paths.js';
import { erasurePath } from './erasure-paths.js';

/**
 * What erasing a memory means, said before anything changes, and the one button that does it.
 * Delete is offered beside it for a live memory: most people who want a memory gone want that.
 */
export function ConfirmErasePage(props: { frame: PageFrame; memory: MemoryRecord }) {
  const { frame, memory } = props;
  const page = memoryPath(frame.basePath, memory.id);
  return (
    <Layout frame={frame} title="Erase this memory for good?" section="memories">
      <div class="erasure">
        <blockquote class="to-erase">{preview(memory.content, 240)}</blockquote>
        <p>
          Erasing removes everything memsvc keeps of this memory, in one go: its content and every earlier version of it, its vector, its
          entries in the word index, its links, its import records, and the quotes of it in other memories. The audit trail keeps only that
          an erasure happened, and when.
        </p>
        <p>
          <strong>It cannot be undone.</strong> Unlike Delete, nothing can restore it: not you, not an operator. Copies outside this
          database (backups, exports) are not touched.
        </p>
        <form method="post" action={memoryPath(frame.basePath, memory.id, 'erase')} class="actions confirm-erase">
          <CsrfField token={frame.csrfToken} />
          <input type="hidden" name="confirmed" value="1" />
          <button type="submit" class="danger">
            Erase for good
          </button>
          <a href={page}>Cancel, keep it</a>
        </form>
        {memory.deletedAt === null ? (
          <p>
            <small>
              To hide it from agents and keep a way back, <a href={page}>delete it</a> instead.
            </small>
          </p>
        ) : null}
      </div>
    </Layout>
  );
}

/**
 * The page of a memory that an erasure took: there is nothing of it left to show, only when it
 * went and the check of that erasure.
 */
export function ErasedMemoryPage(props: { frame: PageFrame; memoryId: string; erasure: ErasureOfMemory }) {
  const { frame, erasure } = props;
  return (
    <Layout frame={frame} title="Erased for good" section="memories">
      <div class="erasure">
        <p>
          <a href={`${frame.basePath}/memories`}>← All memories</a>
        </p>
        <p role="alert">
          Memory <code>{props.memoryId}</code> was erased for good at{' '}
          <time datetime={erasure.erasedAt.toISOString()}>{erasure.erasedAt.toISOString()}</time>: nothing of it is kept, and it cannot be
          restored.
        </p>
        <p>
          <a href={erasurePath(frame.basePath, erasure.erasureId)}>Check that erasure</a> (erasure <code>{erasure.erasureId}</code>).
        </p>
      </div>
    </Layout>
  );
}
