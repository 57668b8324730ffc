// Swagger UI: try-it against this service (the document's server is this deployment), no
// validator badge (it would call validator.swagger.io), the filter box for searching, and
// the user's test key already in Authorize.
(async () => {
  const key = await window.docsTryItKey();
  const ui = window.SwaggerUIBundle({
    url: document.body.dataset.openapiUrl,
    dom_id: '#docs',
    validatorUrl: null,
    deepLinking: true,
    filter: true,
    tryItOutEnabled: true,
    displayRequestDuration: true,
    withCredentials: false,
    onComplete: () => {
      if (key) ui.preauthorizeApiKey('bearerAuth', key);
    },
  });
})();
