// Scalar: nothing from elsewhere (no default fonts, no proxy, no telemetry), the system's
// dark mode, and the user's test key prefilled as the bearer token.
(async () => {
  const key = await window.docsTryItKey();
  window.Scalar.createApiReference('#docs', {
    url: document.body.dataset.specUrl,
    withDefaultFonts: false,
    telemetry: false,
    proxyUrl: '',
    darkMode: window.docsPrefersDark(),
    hideClientButton: true,
    showDeveloperTools: 'never',
    persistAuth: false,
    agent: { disabled: true },
    authentication: {
      preferredSecurityScheme: 'bearerAuth',
      ...(key ? { securitySchemes: { bearerAuth: { token: key } } } : {}),
    },
  });
})();
