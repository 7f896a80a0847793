/** The review pages' own style rules, appended to the dashboard's stylesheet. */
export const REVIEW_PAGE_CSS = `
.review-toc { display: flex; gap: 16px; margin-bottom: 8px; }
.hint { color: var(--muted); max-width: 72ch; }
.pager { display: flex; gap: 16px; }
.pair { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; margin: 0 0 14px; }
.pair h3 { font-size: 0.95rem; margin: 0 0 8px; color: var(--muted); font-weight: 600; }
.pair-sides { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(280px, 100%), 1fr)); gap: 14px; }
.pair-sides .side { background: var(--panel); border-radius: 6px; padding: 8px 12px; }
.side-head, .side-meta { margin: 0; font-size: 0.85rem; color: var(--muted); }
.side-head strong { color: var(--ink); }
p.content { white-space: pre-wrap; overflow-wrap: anywhere; margin: 8px 0; }
.pair .actions { margin: 10px 0 0; }
table.fading td:nth-child(2) { overflow-wrap: anywhere; }
fieldset.cluster { border: 1px solid var(--line); border-radius: 8px; padding: 8px 14px; margin: 0 0 14px; }
fieldset.cluster legend { font-weight: 600; padding: 0 6px; }
ul.losers { margin: 4px 0 8px; padding-left: 20px; }
`;
