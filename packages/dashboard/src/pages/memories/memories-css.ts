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
`;
