/**
 * The map tile server (FLOTILLA_MAP_TILE_URL): a Leaflet-style URL template such as
 * `https://tiles.example.org/{z}/{x}/{y}.png` or `https://{s}.tiles.example.org/{z}/{x}/{y}.png`.
 * The dashboard's CSP allows images from its origin and from nowhere else, so the template
 * must name one origin; `{s}` may only be the first label of the host (CSP `*.host`).
 */
const PLACEHOLDER = /\{(?:s|z|x|y|r)\}/g;

/** The CSP source for the template's images, or null when the template is not usable. */
export function mapTileSource(template: string): string | null {
  if (!/^https?:\/\//.test(template)) return null;
  const sample = template.replace(/\{s\}/g, 'tile-subdomain').replace(PLACEHOLDER, '0');
  if (/[{}]/.test(sample) || !URL.canParse(sample)) return null;
  const url = new URL(sample);
  if (url.username || url.password) return null;
  const labels = url.hostname.split('.');
  const subdomain = labels.indexOf('tile-subdomain');
  if (subdomain > 0 || labels.lastIndexOf('tile-subdomain') > 0) return null;
  const host = subdomain === 0 ? `*.${labels.slice(1).join('.')}` : url.hostname;
  return `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`;
}
