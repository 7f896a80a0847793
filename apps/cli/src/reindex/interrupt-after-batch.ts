/** Raised between batches after Ctrl-C: the batches before it are saved. */
export class ReindexInterrupted extends Error {
  override readonly name = 'ReindexInterrupted';
}

/** Exit code of a process stopped by SIGINT, as shells report it. */
export const EXIT_INTERRUPTED = 130;

/**
 * Ctrl-C stops a run cleanly at the next batch boundary, so the summary can say where to resume;
 * a second Ctrl-C exits at once. Only where the event loop turns between batches: PGlite runs
 * its queries without yielding to it, so a handler would never run and Ctrl-C would do nothing —
 * there (`enabled` false) the default applies, and a killed run still keeps its saved batches.
 */
export function interruptAfterBatch(enabled: boolean, onFirst: () => void): { check(): void; dispose(): void } {
  if (!enabled) return { check() {}, dispose() {} };
  let requested = false;
  const handler = () => {
    if (requested) process.exit(EXIT_INTERRUPTED);
    requested = true;
    onFirst();
  };
  process.on('SIGINT', handler);
  return {
    /** Throws ReindexInterrupted once Ctrl-C was pressed; called after each saved batch. */
    check() {
      if (requested) throw new ReindexInterrupted('interrupted');
    },
    dispose() {
      process.off('SIGINT', handler);
    },
  };
}
