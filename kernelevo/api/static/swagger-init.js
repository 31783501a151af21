// Swagger UI over this server's OpenAPI document. A file of its own, not an inline script: the
// Content-Security-Policy allows scripts from this server only.
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  persistAuthorization: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
