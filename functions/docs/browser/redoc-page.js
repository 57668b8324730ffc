// Redoc: reading only (it has no try-it), its search over operations and schemas, and a
// dark theme when the system asks for one.
const dark = window.docsPrefersDark?.() ?? window.matchMedia('(prefers-color-scheme: dark)').matches;
const darkTheme = {
  colors: {
    primary: { main: '#8ab4f8' },
    text: { primary: '#e8eaed', secondary: '#bdc1c6' },
    border: { dark: '#5f6368', light: '#3c4043' },
  },
  schema: { nestedBackground: '#202124', typeNameColor: '#bdc1c6', typeTitleColor: '#e8eaed' },
  sidebar: { backgroundColor: '#202124', textColor: '#e8eaed' },
  rightPanel: { backgroundColor: '#171717' },
  typography: { code: { color: '#f28b82', backgroundColor: '#303134' }, links: { color: '#8ab4f8' } },
};
window.Redoc.init(
  document.body.dataset.openapiUrl,
  { hideDownloadButton: false, expandResponses: '200,201', ...(dark ? { theme: darkTheme } : {}) },
  document.getElementById('docs'),
);
