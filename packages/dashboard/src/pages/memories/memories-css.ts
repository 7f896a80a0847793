/** The memories list's own style rules (both views, the delete question), appended to the dashboard's stylesheet. */
export const MEMORIES_PAGE_CSS = `
.view-switch { display: flex; gap: 16px; margin: -6px 0 12px; }
.view-switch a[aria-current="page"] { font-weight: 700; text-decoration: none; color: var(--ink); }
table.memories td.memory-text { min-width: 16ch; overflow-wrap: anywhere; }
#bulk-actions { margin: 10px 0; scroll-margin-top: 12px; }
.action-problem { margin: 0; flex-basis: 100%; }
form.undo { justify-content: space-between; }
ul.to-delete { padding-left: 20px; max-width: 72ch; }
ul.to-delete li { overflow-wrap: anywhere; margin: 2px 0; }
/* A phone: each memory is a card of labelled lines, so its markers and dates are on the screen, not
   past the right edge of a table that scrolls sideways. */
@media (max-width: 640px) {
  table.memories thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.memories, table.memories tbody, table.memories tr, table.memories td { display: block; width: auto; }
  table.memories tr { border: 1px solid var(--line); border-radius: 8px; padding: 6px 10px; margin: 0 0 10px; }
  table.memories td { border: 0; padding: 2px 0; }
  table.memories td[data-label]:not(:empty)::before { content: attr(data-label) ": "; color: var(--muted); }
  table.memories td[data-label]:empty { display: none; }
}
`;
