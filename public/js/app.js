// Progressive enhancement only: every page works without this script.
// Shows <time datetime> values in the reader's own time zone.
for (const element of document.querySelectorAll('time[datetime]')) {
  const date = new Date(element.getAttribute('datetime'));
  if (Number.isNaN(date.getTime())) continue;
  const dateOnly = element.dataset.format === 'date';
  element.textContent = dateOnly
    ? date.toLocaleDateString(undefined, { dateStyle: 'medium' })
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  element.title = date.toISOString();
}
