import { MEMORY_LIMITS, type MemoryRecord } from '@memsvc/core';
import { shortTime } from '../../views/format.js';
import { CsrfField, Layout, type PageFrame } from '../../views/layout.js';
import { textDiff } from './memory-diff.js';
import { DiffText } from './memory-history-view.js';
import { memoryPath } from './memory-paths.js';

export interface ConflictView {
  readonly frame: PageFrame;
  /** The memory as it is now, changed by someone else since the form was loaded. */
  readonly current: MemoryRecord;
  /** The version the form was loaded at. */
  readonly expectedVersion: number;
  /** What the person submitted. */
  readonly yours: { readonly content: string; readonly tags: readonly string[] };
}

/**
 * An edit refused because the memory changed after the form was loaded (CONFLICT from the
 * engine): nothing was saved. The current version and the person's text side by side, what
 * saving theirs would change, and a form to save it on top of the current version after all.
 */
export function ConflictPage(props: ConflictView) {
  const { frame, current, yours } = props;
  return (
    <Layout frame={frame} title="Edit not saved: the memory changed" section="memories">
      <div class="memory-page">
        <p class="notice error" role="alert">
          This memory changed after you opened it (you edited version {props.expectedVersion}; it is now at version {current.version}, last
          changed {shortTime(current.updatedAt)}). Nothing was saved. Compare the two texts, then save yours on top of the current version,
          or keep the current one.
        </p>
        <div class="conflict">
          <section aria-labelledby="conflict-current">
            <h2 id="conflict-current">Current version {current.version}</h2>
            <pre class="content">{current.content}</pre>
            <p>
              Tags: <TagList tags={current.tags} />
            </p>
          </section>
          <section aria-labelledby="conflict-yours">
            <h2 id="conflict-yours">Your edit</h2>
            <pre class="content">{yours.content}</pre>
            <p>
              Tags: <TagList tags={yours.tags} />
            </p>
          </section>
        </div>
        <h2>What saving yours would change</h2>
        <DiffText parts={textDiff(current.content, yours.content, 'words')} />
        <form method="post" action={memoryPath(frame.basePath, current.id, 'edit')} class="edit">
          <CsrfField token={frame.csrfToken} />
          <input type="hidden" name="expectedVersion" value={String(current.version)} />
          <label for="conflict-content">Your content</label>
          <textarea id="conflict-content" name="content" required maxlength={MEMORY_LIMITS.contentMaxChars} rows={8}>
            {`\n${yours.content}`}
          </textarea>
          <label for="conflict-tags">Your tags, one per line</label>
          <textarea id="conflict-tags" name="tags" rows={3} class="tags-input">
            {`\n${yours.tags.join('\n')}`}
          </textarea>
          <p class="actions">
            <button type="submit" class="primary">
              Save mine as version {current.version + 1}
            </button>
            <a href={memoryPath(frame.basePath, current.id)}>Keep the current version</a>
          </p>
        </form>
      </div>
    </Layout>
  );
}

function TagList(props: { tags: readonly string[] }) {
  return props.tags.length > 0 ? <span>{props.tags.join(', ')}</span> : <span>none</span>;
}
