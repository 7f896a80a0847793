/** The erasure pages' own style rules (the question, the receipt, the check, the Access page's section), appended to the dashboard's stylesheet. */
export const ERASURE_PAGE_CSS = `
a.erase-link { color: var(--danger); }
.erasure blockquote.to-erase { margin: 0 0 12px; padding: 8px 12px; border-left: 3px solid var(--danger); background: var(--panel); overflow-wrap: anywhere; }
.erasure dl.receipt { margin-bottom: 8px; }
.erasure code.digest, .erasure code.erasure-id { overflow-wrap: anywhere; }
.erasure ul.erased-ids { margin: 4px 0; padding-left: 20px; max-height: 16rem; overflow-y: auto; }
.erasure table.erasure-counts { max-width: 640px; }
.erasure table.erasure-counts th[scope="row"] { color: var(--ink); font-weight: 400; }
.erasure table.erasure-counts td { text-align: right; font-variant-numeric: tabular-nums; }
.erasure form.verify { margin-top: 16px; }
.erasure small { color: var(--muted); }
.erase-all { border: 1px solid var(--danger); border-radius: 8px; padding: 4px 14px 14px; max-width: 640px; margin-top: 28px; }
.erase-all h2 { margin-top: 10px; color: var(--danger); }
.erase-all input { width: 100%; }
.erase-all [aria-invalid=true] { border-color: var(--danger); outline: 1px solid var(--danger); }
`;
