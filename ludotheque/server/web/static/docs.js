// The API's documentation page (/docs): Swagger UI (vendor/swagger-ui, loaded before this
// module) drawn into #swagger-ui from the schema its data-url names. A file of ours rather
// than an inline script, so that the page keeps the site's Content-Security-Policy.
const root = document.getElementById("swagger-ui");
const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? "";

window.ui = window.SwaggerUIBundle({
  url: root.dataset.url,
  domNode: root,
  deepLinking: true, // an operation opened is in the address (#/lobby/api_seek_...), to share
  presets: [window.SwaggerUIBundle.presets.apis],
  layout: "BaseLayout", // no top bar: the site's header is the page's
  validatorUrl: null, // the default badge would ask validator.swagger.io, another origin
  showExtensions: true,
  showCommonExtensions: true,
  defaultModelsExpandDepth: 1,
  displayRequestDuration: true,
  // "Try it out" acts as the person reading the page: a signed-in person's requests that
  // change something need their CSRF token, which the site's own scripts send the same way
  requestInterceptor: (request) => {
    if (csrf && new URL(request.url, location.href).origin === location.origin) {
      request.headers["X-CSRF-Token"] = csrf;
    }
    return request;
  },
});
