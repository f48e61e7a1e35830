// Progressive enhancement only: every page works without this script.
// Shows <time datetime> values in the reader's own time zone (not those the server wrote in the
// user's account time zone, data-zone, nor those that say how long ago: data-relative), written
// the way the page's language writes dates (its locale, data-locale on <body>, from the server).
const pageLocale = document.body.dataset.locale || undefined;
for (const element of document.querySelectorAll('time[datetime]:not([data-zone]):not([data-relative])')) {
  const value = element.getAttribute('datetime');
  // A calendar date (a due date) has no time zone: read it as that day locally, or
  // new Date('2024-05-01') (UTC midnight) would show 30 April west of Greenwich.
  const calendar = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = calendar ? new Date(Number(calendar[1]), Number(calendar[2]) - 1, Number(calendar[3])) : new Date(value);
  if (Number.isNaN(date.getTime())) continue;
  const dateOnly = calendar !== null || element.dataset.format === 'date';
  element.textContent = dateOnly
    ? date.toLocaleDateString(pageLocale, { dateStyle: 'medium' })
    : date.toLocaleString(pageLocale, { dateStyle: 'medium', timeStyle: 'short' });
  element.title = calendar ? value : date.toISOString();
}

// Registration: the browser's time zone, as the account's first guess (changeable on /accounts/).
for (const input of document.querySelectorAll('input[data-guess-time-zone]')) {
  if (!input.value) input.value = Intl.DateTimeFormat().resolvedOptions().timeZone || '';
}

// A form shown again with errors: the first field in error takes the focus (over autofocus), so
// that keyboard and screen-reader users start where the fix is.
// An error summary at the top of the page (a failed list item) takes it first: it links to each field.
const firstInvalid = document.querySelector('[data-error-summary]') ?? document.querySelector('form [aria-invalid="true"]');
if (firstInvalid) firstInvalid.focus();

// A 400 page that answers a POST to another path (an item's add form) shows the list's own
// address again, so that a reload reads the page instead of posting the form again.
const replaceUrl = document.querySelector('[data-replace-url]')?.getAttribute('data-replace-url');
if (replaceUrl && replaceUrl.startsWith('/') && !replaceUrl.startsWith('//')) window.history.replaceState(null, '', replaceUrl);

// After a change to a list the page opens at an anchor (#item-3, #add-item): the row itself, or
// the first field of the form section, takes the focus, so keyboard users go on from there.
const target = !firstInvalid && location.hash.length > 1 ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
if (target) {
  const focusable = target.matches('[tabindex], input, select, textarea, button, a[href]') ? target : target.querySelector('input:not([type=hidden]), select, textarea');
  // After the load: the browser's own move to the fragment, which comes then, would take it back.
  if (document.readyState === 'complete') focusable?.focus();
  else window.addEventListener('load', () => setTimeout(() => focusable?.focus(), 0), { once: true });
}

// A page answering a form's POST that is also a page of its own (a new token shown once on the
// tokens list) names that page's address: a reload then asks for the page instead of sending the
// form again.
const pageUrl = document.querySelector('[data-page-url]')?.dataset.pageUrl;
if (pageUrl && pageUrl.startsWith('/') && !pageUrl.startsWith('//')) window.history.replaceState(window.history.state, '', pageUrl);

// A form marked data-warn-unsaved (a note being written) asks before its page is left with what
// was typed in it not saved: the browser's own "Leave site?" prompt, which no page can word.
for (const form of document.querySelectorAll('form[data-warn-unsaved]')) {
  const initial = new FormData(form);
  const unsaved = () => [...new FormData(form)].some(([name, value]) => name !== 'csrfmiddlewaretoken' && value !== initial.get(name)) || [...initial.keys()].some((name) => !new FormData(form).has(name));
  let sending = false;
  form.addEventListener('submit', () => {
    sending = true;
  });
  window.addEventListener('beforeunload', (event) => {
    if (sending || !unsaved()) return;
    event.preventDefault();
    event.returnValue = '';
  });
}
