/** The memory pages' own style rules, appended to the dashboard's stylesheet; every rule is under `.memory-page`. */
export const MEMORY_PAGE_CSS = `
.memory-page pre.content { max-height: 32rem; overflow-y: auto; }
.memory-page .muted { color: var(--muted); margin: 6px 0; }
.memory-page .deleted { justify-content: space-between; }
.memory-page .card h2 { margin-top: 0; }
.memory-page table.importance caption { text-align: left; padding-bottom: 6px; }
.memory-page table.importance th[scope="row"] { color: var(--ink); font-weight: 400; font-size: 0.9rem; }
.memory-page small { color: var(--muted); }
.memory-page ul.tags { display: flex; flex-wrap: wrap; gap: 4px 6px; list-style: none; margin: 0; padding: 0; }
.memory-page ul.tags li { border: 1px solid var(--line); border-radius: 10px; padding: 0 8px; overflow-wrap: anywhere; }
.memory-page dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.memory-page form.edit { display: flex; flex-direction: column; gap: 6px; max-width: 960px; }
.memory-page textarea.tags-input { min-height: 4.5rem; }
.memory-page .version { border-top: 1px solid var(--line); padding: 4px 0 10px; }
.memory-page .version h3 { font-size: 1rem; margin: 10px 0 6px; }
.memory-page ul.changes { margin: 4px 0; padding-left: 20px; }
.memory-page .diff ins, .memory-page ul.changes ins { text-decoration: underline; }
.memory-page .diff del, .memory-page ul.changes del { text-decoration: line-through; }
.memory-page .diff .elided { color: var(--muted); font-style: italic; }
.memory-page input.version-number { width: 7rem; }
.memory-page .conflict { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(320px, 100%), 1fr)); gap: 16px; }
.memory-page .conflict section { border: 1px solid var(--line); border-radius: 8px; padding: 0 12px; }
.memory-page .conflict h2 { margin-top: 12px; }
.memory-page .note { color: var(--muted); overflow-wrap: anywhere; }
`;
