import { ACCESS_PAGE_CSS } from '../pages/access/access-css.js';
import { ERASURE_PAGE_CSS } from '../pages/erasure/erasure-css.js';
import { MEMORIES_PAGE_CSS } from '../pages/memories/memories-css.js';
import { MEMORY_PAGE_CSS } from '../pages/memory/memory-css.js';
import { OPERATIONS_PAGE_CSS } from '../pages/operations/operations-css.js';
import { REVIEW_PAGE_CSS } from '../pages/review/review-css.js';

/**
 * The dashboard's one stylesheet, served from `/assets/dashboard.css` (the Content-Security-Policy
 * allows no inline style). Plain CSS, no build step; colours pass WCAG AA contrast.
 */
const BASE_CSS = `
:root { --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #ffffff; --panel: #f6f8fa; --accent: #0550ae; --danger: #a40e26; --ok: #116329; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
.skip { position: absolute; left: -999px; } .skip:focus { left: 8px; top: 8px; background: var(--bg); padding: 4px 8px; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.top { display: flex; flex-wrap: wrap; gap: 8px 24px; align-items: center; padding: 10px 24px; border-bottom: 1px solid var(--line); background: var(--panel); }
.brand { font-weight: 700; }
.top nav { display: flex; flex-wrap: wrap; gap: 4px 16px; flex: 1; }
.top nav a[aria-current="page"] { font-weight: 700; text-decoration: none; color: var(--ink); }
.who { display: flex; gap: 8px; align-items: center; margin: 0; min-width: 0; } .who span { overflow-wrap: anywhere; }
main { padding: 16px 24px 48px; max-width: 1280px; }
main.bare { max-width: 560px; margin: 48px auto; }
h1 { font-size: 1.5rem; margin: 0 0 16px; } h2 { font-size: 1.15rem; margin: 28px 0 10px; }
.filters { display: flex; flex-wrap: wrap; gap: 10px 16px; align-items: flex-end; margin-bottom: 16px; }
.filters label { display: flex; flex-direction: column; font-size: 0.85rem; color: var(--muted); }
input, select, textarea, button { font: inherit; }
input, select, textarea { border: 1px solid var(--line); border-radius: 6px; padding: 5px 8px; color: var(--ink); background: var(--bg); }
textarea { width: 100%; min-height: 12rem; font-family: ui-monospace, monospace; }
button { border: 1px solid var(--line); border-radius: 6px; padding: 5px 12px; background: var(--panel); color: var(--ink); cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button.danger { color: var(--danger); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 0.85rem; color: var(--muted); font-weight: 600; }
td.content, pre.content { white-space: pre-wrap; overflow-wrap: anywhere; }
pre { background: var(--panel); padding: 10px; border-radius: 6px; overflow-x: auto; }
.notice { padding: 8px 12px; border-radius: 6px; border: 1px solid var(--line); }
.notice.ok { border-color: var(--ok); color: var(--ok); } .notice.error { border-color: var(--danger); color: var(--danger); }
.actions { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(260px, 100%), 1fr)); gap: 16px; }
/* A wide table scrolls inside its own box, never the page. */
.table-box { overflow-x: auto; max-width: 100%; position: relative; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 14px; margin: 0; } dl.facts dt { color: var(--muted); }
ins { background: #dafbe1; text-decoration: none; } del { background: #ffebe9; }
.bar { fill: var(--accent); } .axis { stroke: var(--line); } svg text { fill: var(--muted); font-size: 11px; }
progress { width: 220px; max-width: 100%; }
/* A phone (390 px): nothing wider than the screen; tables not already in a box scroll in their own. */
@media (max-width: 640px) {
  .top { padding: 8px 12px; }
  main { padding: 12px 12px 40px; }
  main.bare { margin: 24px auto; }
  table:not(.table-box table) { display: block; overflow-x: auto; max-width: 100%; position: relative; }
  .filters label, .filters input, .filters select { max-width: 100%; }
  .filters input[type=search] { width: 100%; }
  .filters label:first-child { flex-basis: 100%; }
  input, select, textarea { max-width: 100%; }
}
`;

/** Served from `/assets/dashboard.css`: the base rules and each page's own. */
export const DASHBOARD_CSS = [
  BASE_CSS,
  MEMORIES_PAGE_CSS,
  MEMORY_PAGE_CSS,
  REVIEW_PAGE_CSS,
  OPERATIONS_PAGE_CSS,
  ACCESS_PAGE_CSS,
  ERASURE_PAGE_CSS,
].join('\n');
