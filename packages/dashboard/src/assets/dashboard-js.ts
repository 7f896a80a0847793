/**
 * The dashboard's progressive enhancement, served from `/assets/dashboard.js`: every page works
 * without it. It wires "select all" checkboxes, asks before destructive submits, and refreshes
 * elements marked `data-refresh` (a reindex job's progress) from their JSON endpoint. It reads
 * and writes text only (textContent, value), never HTML.
 */
export const DASHBOARD_JS = `
document.addEventListener('change', (event) => {
  const box = event.target;
  if (!(box instanceof HTMLInputElement) || !box.dataset.selectAll) return;
  for (const other of document.querySelectorAll('input[type=checkbox][name="' + box.dataset.selectAll + '"]')) other.checked = box.checked;
});
document.addEventListener('submit', (event) => {
  const form = event.target;
  const question = form instanceof HTMLFormElement ? form.dataset.confirm : undefined;
  if (question && !window.confirm(question)) event.preventDefault();
});
for (const element of document.querySelectorAll('[data-refresh]')) {
  const refresh = async () => {
    try {
      const response = await fetch(element.dataset.refresh, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
      if (!response.ok) return;
      const job = await response.json();
      for (const field of element.querySelectorAll('[data-field]')) {
        const value = field.dataset.field.split('.').reduce((object, key) => (object == null ? undefined : object[key]), job);
        if (field instanceof HTMLProgressElement) field.value = Number(value) || 0;
        else field.textContent = value == null ? '' : String(value);
      }
      if (job.state === 'queued' || job.state === 'running') setTimeout(refresh, 1000);
    } catch {}
  };
  setTimeout(refresh, 1000);
}
`;
