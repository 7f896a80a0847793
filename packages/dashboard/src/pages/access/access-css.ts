/** The access pages' own style rules, appended to the dashboard's stylesheet. */
export const ACCESS_PAGE_CSS = `
.new-key { border: 2px solid var(--ok); border-radius: 8px; padding: 4px 16px 12px; margin-bottom: 16px; }
.new-key h2 { margin-top: 12px; overflow-wrap: anywhere; }
.new-key details .configs { margin-top: 10px; }
pre.secret { font-size: 1.05rem; white-space: pre-wrap; overflow-wrap: anywhere; border: 1px dashed var(--ok); }
.create-key, .share-space { border: 1px solid var(--line); border-radius: 8px; padding: 4px 14px 14px; background: var(--panel); max-width: 640px; margin-bottom: 16px; }
.create-key h3, .share-space h3 { margin: 10px 0; font-size: 1rem; }
.create-key input:not([type=checkbox]), .create-key select, .share-space input, .share-space select { width: 100%; }
.create-key fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 12px; padding: 6px 10px 8px; }
.create-key label.scope { display: block; margin: 4px 0; }
.create-key small, .share-space small, .note small { color: var(--muted); }
table.keys td.key-name, table.members td { overflow-wrap: anywhere; }
table.keys td, table.keys th { white-space: nowrap; } table.keys td.key-name { white-space: normal; min-width: 12ch; }
table.keys tr.inactive td { color: var(--muted); }
table.keys td.state.revoked, table.keys td.state.expired { color: var(--danger); font-weight: 600; }
table.keys form { margin: 0; }
.note { color: var(--ink); margin-top: 12px; }
.organization { margin: 12px 0; }
.organization h3 { margin: 0 0 4px; font-size: 1rem; }
.connect h3 { margin-top: 18px; font-size: 1.05rem; }
.configs { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(420px, 100%), 1fr)); gap: 12px 16px; }
figure.config { margin: 0; min-width: 0; }
figure.config figcaption { font-size: 0.85rem; color: var(--muted); margin-bottom: 4px; }
figure.config pre, .new-key pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
code.mcp-url { overflow-wrap: anywhere; }
.share-space [aria-invalid=true] { border-color: var(--danger); outline: 1px solid var(--danger); }
table.grants-received button { padding: 2px 8px; }
`;
