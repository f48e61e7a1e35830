// Progressive enhancement only: a link marked data-confirm leads to a confirmation page (GET) that
// holds the POST form, and works so without this script. With it, that page's question and form
// open in a modal <dialog> over the current page instead: one place says what a confirmation
// looks like (the server's page), and the dialog only borrows it.
(() => {
  async function confirmationOf(href) {
    const response = await fetch(href, { credentials: 'same-origin', headers: { Accept: 'text/html' } });
    if (!response.ok || response.redirected) return null;
    const page = new DOMParser().parseFromString(await response.text(), 'text/html');
    const forms = page.querySelectorAll('main form[method="post" i]');
    if (forms.length !== 1) return null;
    const form = forms[0];
    const panel = form.closest('article') ?? form.parentElement;
    return panel.querySelector('h1') ? document.importNode(panel, true) : null;
  }

  function open(link, panel) {
    const dialog = document.createElement('dialog');
    const heading = panel.querySelector('h1');
    heading.id = 'confirm-dialog-title';
    dialog.setAttribute('aria-labelledby', heading.id);
    panel.classList.remove('narrow');
    dialog.append(panel);
    // The page's Cancel link would navigate away: here it only closes the dialog.
    for (const cancel of panel.querySelectorAll('a[role="button"]')) {
      cancel.addEventListener('click', (event) => {
        event.preventDefault();
        dialog.close();
      });
    }
    dialog.addEventListener('close', () => {
      dialog.remove();
      link.focus();
    });
    document.body.append(dialog);
    dialog.showModal();
    // The least harmful choice takes the focus: Enter alone must not destroy anything.
    (panel.querySelector('a[role="button"]') ?? panel.querySelector('button'))?.focus();
  }

  document.addEventListener('click', async (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[data-confirm]') : null;
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    let panel = null;
    try {
      panel = await confirmationOf(link.href);
    } catch {
      // Offline or refused: the confirmation page itself says what happened.
    }
    if (panel) open(link, panel);
    else location.assign(link.href);
  });
})();
