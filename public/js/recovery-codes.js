// The recovery codes page (features/accounts/two-factor-views.tsx): its Copy and Print buttons,
// hidden in the page, since without this script they could do nothing. Download is a link and
// needs no script; without one, the codes are still on the page to copy by hand.
(() => {
  const page = document.querySelector('.recovery-codes-page');
  if (!page) return;
  const copy = page.querySelector('[data-copy-codes]');
  const download = page.querySelector('[data-download-codes]');
  const print = page.querySelector('[data-print-codes]');
  const status = page.querySelector('[data-codes-status]');

  // What is copied is what is downloaded: the text of the link's data: URL, written by the server.
  const href = download.getAttribute('href');
  const text = decodeURIComponent(href.slice(href.indexOf(',') + 1));

  // The clipboard exists only on a secure page (HTTPS, or localhost).
  if (window.navigator.clipboard) {
    copy.hidden = false;
    copy.addEventListener('click', async () => {
      try {
        await window.navigator.clipboard.writeText(text);
        status.textContent = copy.dataset.copied;
      } catch {
        // Refused (a browser setting, a page not in focus): the codes are left selected, for Ctrl+C.
        window.getSelection().selectAllChildren(page.querySelector('.recovery-codes'));
        status.textContent = copy.dataset.copyFailed;
      }
    });
  }

  print.hidden = false;
  print.addEventListener('click', () => window.print());
})();
