/**
 * Stands in for `handlebars`, which balena-sdk requires only to template device-type
 * install instructions (`sdk.models.deviceType.getInstructions`). Handlebars compiles
 * templates with `new Function`, which the server's CSP (script-src 'self', no
 * 'unsafe-eval') forbids, so it could never run here; leaving it out also saves ~30 KB
 * gzip on the first page. Install instructions must come pre-rendered from the server.
 */
function unsupported(): never {
  throw new Error('Handlebars templates are not available in the dashboard (blocked by its Content Security Policy)');
}

export const compile = unsupported;
export const precompile = unsupported;
export const template = unsupported;
export const registerHelper = unsupported;
export const registerPartial = unsupported;
export default { compile, precompile, template, registerHelper, registerPartial };
