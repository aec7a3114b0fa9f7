import { CERTIFICATE_BEGIN, CERTIFICATE_END, IDP_MESSAGES, IDP_METADATA_MAX_BYTES, normalizeCertificate } from '@flotilla/model';

/**
 * Spec 1 §5 "Metadata upload": an identity provider's SAML metadata (XML, at most
 * 1,000,000 bytes) read in the browser into the three fields the create form needs. Nothing
 * is sent anywhere: the browser's DOMParser reads the file, the user checks what it filled.
 */

const MD_NS = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS_NS = 'http://www.w3.org/2000/09/xmldsig#';
/** Sign-in bindings in the order they are preferred: a redirect first, else a form POST. */
const BINDING_PREFERENCE = ['urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST'];

export interface IdpMetadataFields {
  entryPoint: string;
  issuer: string;
  /** PEM, wrapped at 64 characters (the model's stored form). */
  certificate: string;
}

export type MetadataResult = { ok: true; fields: IdpMetadataFields } | { ok: false; message: string };

/** Only the parts of a DOM parser this reads with (the browser's DOMParser; a test passes another). */
export interface XmlParser {
  parseFromString(text: string, type: 'text/xml'): Document;
}

/** The file is taken as XML by its type or, when the browser gives none, its name. */
export function isXmlFile(file: { name: string; type: string }): boolean {
  if (file.type !== '') return /^(application|text)\/([\w.+-]+\+)?xml$/i.test(file.type);
  return /\.xml$/i.test(file.name);
}

/** Why a chosen file cannot be read as metadata (type, then size), or undefined. */
export function metadataFileProblem(file: { name: string; type: string; size: number }): string | undefined {
  if (!isXmlFile(file)) return IDP_MESSAGES.metadata_not_xml;
  if (file.size > IDP_METADATA_MAX_BYTES) return IDP_MESSAGES.metadata_too_large;
  return undefined;
}

function children(parent: Element | Document, ns: string, name: string): Element[] {
  return Array.from(parent.getElementsByTagNameNS(ns, name) as ArrayLike<Element>);
}

/** The entry point: the sign-in service's Location, HTTP-Redirect binding preferred over HTTP-POST. */
function entryPointOf(descriptor: Element): string | undefined {
  const services = children(descriptor, MD_NS, 'SingleSignOnService');
  for (const binding of BINDING_PREFERENCE) {
    const location = services.find((s) => s.getAttribute('Binding') === binding)?.getAttribute('Location')?.trim();
    if (location) return location;
  }
  return undefined;
}

/** The signing certificate (a KeyDescriptor with use="signing", or with no use: both), as PEM. */
function certificateOf(descriptor: Element): string | undefined {
  const keys = children(descriptor, MD_NS, 'KeyDescriptor');
  const signing = [...keys.filter((k) => k.getAttribute('use') === 'signing'), ...keys.filter((k) => !k.getAttribute('use'))];
  for (const key of signing) {
    const body = children(key, DS_NS, 'X509Certificate')[0]?.textContent?.replace(/\s+/g, '');
    if (!body) continue;
    const pem = normalizeCertificate(`${CERTIFICATE_BEGIN}\n${body}\n${CERTIFICATE_END}`);
    if (pem) return pem;
  }
  return undefined;
}

/**
 * The entry point, issuer (the EntityDescriptor's entityID) and signing certificate of the
 * first identity provider the metadata describes; any part missing, or XML that does not
 * parse, is `failed_to_parse_saml_metadata`.
 */
export function parseIdpMetadata(xml: string, parser: XmlParser = new DOMParser()): MetadataResult {
  const failed = { ok: false, message: IDP_MESSAGES.failed_to_parse_saml_metadata } as const;
  let doc: Document;
  try {
    doc = parser.parseFromString(xml, 'text/xml');
  } catch {
    return failed;
  }
  // A browser answers unparsable XML with a document holding a <parsererror>.
  if (!doc?.documentElement || doc.getElementsByTagName('parsererror').length > 0) return failed;
  for (const entity of children(doc, MD_NS, 'EntityDescriptor')) {
    const descriptor = children(entity, MD_NS, 'IDPSSODescriptor')[0];
    if (!descriptor) continue;
    const issuer = entity.getAttribute('entityID')?.trim();
    const entryPoint = entryPointOf(descriptor);
    const certificate = certificateOf(descriptor);
    if (issuer && entryPoint && certificate) return { ok: true, fields: { issuer, entryPoint, certificate } };
    return failed;
  }
  return failed;
}

/** Reads a chosen file: its type and size first, then its text. */
export async function readIdpMetadataFile(file: File, parser?: XmlParser): Promise<MetadataResult> {
  const problem = metadataFileProblem(file);
  if (problem) return { ok: false, message: problem };
  let text: string;
  try {
    text = await file.text();
  } catch {
    return { ok: false, message: IDP_MESSAGES.failed_to_parse_saml_metadata };
  }
  return parseIdpMetadata(text, parser);
}
