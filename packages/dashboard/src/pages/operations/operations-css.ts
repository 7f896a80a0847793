/**
 * The operations pages' own style rules, appended to the dashboard's stylesheet. The charts are
 * drawn by these classes (the CSP allows no style attribute); their lines keep 3:1 contrast on
 * white, and the two series differ by dash pattern as well as colour.
 */
export const OPERATIONS_PAGE_CSS = `
.ops-section { margin-bottom: 28px; }
.ops-section h3 { font-size: 1rem; margin: 18px 0 6px; }
.card h3 { margin-top: 0; display: flex; gap: 8px; align-items: baseline; }
.status { font-weight: 700; text-transform: uppercase; font-size: 0.8rem; padding: 1px 6px; border-radius: 4px; border: 1px solid; }
.status.good { color: var(--ok); border-color: var(--ok); } .status.bad { color: var(--danger); border-color: var(--danger); }
.hint { color: var(--muted); font-size: 0.9rem; margin: 4px 0 8px; }
.reindex-form fieldset { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; margin: 0 0 16px; }
.reindex-form legend { font-weight: 600; padding: 0 4px; }
.reindex-form .checks { display: flex; flex-wrap: wrap; gap: 6px 20px; }
table.jobs td { font-size: 0.9rem; }
table.jobs caption, table.compact caption { text-align: left; font-weight: 600; padding: 6px 0; }
.job-id { font-size: 0.8rem; overflow-wrap: anywhere; }
.job-state { font-weight: 600; }
.job-error { color: var(--danger); margin: 4px 0 0; font-size: 0.85rem; overflow-wrap: anywhere; }
table.jobs .counts { display: block; color: var(--muted); }
td.actions form { display: inline; margin-right: 6px; }
table.compact { width: auto; min-width: 280px; margin: 8px 0 16px; }
.chart { margin: 0 0 12px; max-width: 900px; }
.chart-svg { width: 100%; height: auto; display: block; }
.grid-line { stroke: var(--line); stroke-dasharray: 2 4; }
.line { fill: none; stroke-width: 2.5; }
.series-ltm { stroke: var(--accent); }
.series-stm { stroke: #9a4700; stroke-dasharray: 6 4; }
.legend { list-style: none; display: flex; gap: 18px; padding: 0; margin: 6px 0; font-size: 0.9rem; }
.legend li { display: flex; gap: 6px; align-items: center; }
.chart details { margin-top: 4px; font-size: 0.9rem; }
table.chart-data { width: auto; min-width: 280px; }
table.chart-data th[scope="row"] { font-weight: 400; color: var(--ink); }
`;
