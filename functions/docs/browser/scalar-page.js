// Scalar: nothing from elsewhere (no default fonts, no proxy, no telemetry), the system's
// dark mode, and the user's test key prefilled as the bearer token.
(async () => {
  const key = await window.docsTryItKey();
  window.Scalar.createApiReference('#docs', {
    // The agent (Scalar's AI chat) is a setting of each source: off (and never on in the served copy: functions/docs/assets.ts).
    sources: [{ url: document.body.dataset.openapiUrl, agent: { disabled: true } }],
    withDefaultFonts: false,
    telemetry: false,
    proxyUrl: '',
    darkMode: window.docsPrefersDark(),
    hideClientButton: true,
    showDeveloperTools: 'never',
    persistAuth: false,
    authentication: {
      preferredSecurityScheme: 'bearerAuth',
      ...(key ? { securitySchemes: { bearerAuth: { token: key } } } : {}),
    },
  });
})();
