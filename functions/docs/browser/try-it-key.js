// The signed-in user's test key for the try-it form: POST with the session cookie and its
// XSRF token echoed (the double submit every cookie request that changes something needs).
// Resolves to undefined when none can be had: the page still renders, without a key.
window.docsTryItKey = async () => {
  const xsrf = document.cookie
    .split('; ')
    .find((c) => c.startsWith('XSRF-TOKEN='))
    ?.slice('XSRF-TOKEN='.length);
  try {
    const answer = await fetch(document.body.dataset.tryItKeyUrl, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf ?? ''), Accept: 'application/json' },
    });
    if (!answer.ok) return undefined;
    return (await answer.json()).data.key;
  } catch {
    return undefined;
  }
};

window.docsPrefersDark = () => window.matchMedia('(prefers-color-scheme: dark)').matches;
