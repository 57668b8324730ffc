// The login form, posted as JSON to /login (which takes no form encoding); on success the
// browser has the session cookie and opens the page it came for, a path the service
// checked before writing it into the form.
const form = document.getElementById('login');
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const fields = new FormData(form);
  const answer = await fetch(form.action, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ email: fields.get('email'), password: fields.get('password') }),
  });
  if (answer.ok) {
    window.location.assign(form.dataset.returnTo);
    return;
  }
  const problem = await answer.json().catch(() => ({}));
  document.getElementById('login-error').textContent = problem.message ?? `Login failed (${answer.status}).`;
});
