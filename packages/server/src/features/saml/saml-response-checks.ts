// Checks of a SAML Response made before node-saml validates its signatures (issue 20):
// defence in depth against XML signature wrapping, and what node-saml does not check itself
// (the algorithm allow-list, the Destination and the Recipient). Pure: XML text in, a
// problem (or null) out.

/** node-saml's XML parser (its XML stack loads on the first SAML response, not at start). */
async function parseDomFromString(xml: string): Promise<Document> {
  return (await import('@node-saml/node-saml/lib/xml.js')).parseDomFromString(xml);
}

const SAML_ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const SAML_PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const XMLDSIG = 'http://www.w3.org/2000/09/xmldsig#';

/** Signature algorithms accepted: RSA with SHA-256 or SHA-512 (no SHA-1). */
export const ALLOWED_SIGNATURE_ALGORITHMS: readonly string[] = [
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
];
/** Digest algorithms accepted: SHA-256 or SHA-512. */
export const ALLOWED_DIGEST_ALGORITHMS: readonly string[] = ['http://www.w3.org/2001/04/xmlenc#sha256', 'http://www.w3.org/2001/04/xmlenc#sha512'];

/** The largest SAMLResponse (base64) the callback reads. */
export const SAML_RESPONSE_MAX_LENGTH = 256 * 1024;

const COMMENT_NODE = 8;
const ELEMENT_NODE = 1;

function elements(root: Document | Element, namespace: string, localName: string): Element[] {
  return Array.from(root.getElementsByTagNameNS(namespace, localName));
}

function containsComment(node: Node): boolean {
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === COMMENT_NODE) return true;
    if (child.nodeType === ELEMENT_NODE && containsComment(child)) return true;
  }
  return false;
}

/**
 * The reason a response is refused before its signatures are checked, or null:
 * - the document is a samlp:Response holding exactly one saml:Assertion (a second assertion
 *   anywhere, or an encrypted one, is refused: signature wrapping hides one beside another);
 * - no XML comment inside the assertion (a comment in a signed NameID survives the
 *   signature and truncates the value for a naive reader);
 * - every signature and digest algorithm is on the allow-list;
 * - the response's Destination, when present, and every SubjectConfirmationData's Recipient
 *   name our assertion consumer service;
 * - the assertion's Issuer, and the response's when present, is the provider's issuer
 *   (node-saml checks the issuer of logout messages only).
 */
export async function responseProblem(xml: string, expected: { acsUrl: string; issuer: string }): Promise<string | null> {
  const { acsUrl } = expected;
  let doc: Document;
  try {
    doc = await parseDomFromString(xml);
  } catch {
    return 'the response is not well-formed XML';
  }
  const root = doc.documentElement;
  if (!root || root.namespaceURI !== SAML_PROTOCOL || root.localName !== 'Response') return 'not a SAML Response';
  if (elements(doc, SAML_ASSERTION, 'EncryptedAssertion').length > 0) return 'encrypted assertions are not supported';
  const assertions = elements(doc, SAML_ASSERTION, 'Assertion');
  if (assertions.length !== 1) return `the response must hold exactly one assertion (it holds ${assertions.length})`;
  const assertion = assertions[0]!;
  if (assertion.parentNode !== root) return 'the assertion is not a child of the response';
  if (containsComment(assertion)) return 'comments are not allowed inside the assertion';
  for (const method of elements(doc, XMLDSIG, 'SignatureMethod')) {
    const algorithm = method.getAttribute('Algorithm') ?? '';
    if (!ALLOWED_SIGNATURE_ALGORITHMS.includes(algorithm)) return `signature algorithm not allowed: ${algorithm}`;
  }
  for (const method of elements(doc, XMLDSIG, 'DigestMethod')) {
    const algorithm = method.getAttribute('Algorithm') ?? '';
    if (!ALLOWED_DIGEST_ALGORITHMS.includes(algorithm)) return `digest algorithm not allowed: ${algorithm}`;
  }
  const issuerOf = (element: Element) =>
    Array.from(element.childNodes).find((n): n is Element => n.nodeType === ELEMENT_NODE && (n as Element).namespaceURI === SAML_ASSERTION && (n as Element).localName === 'Issuer');
  const assertionIssuer = issuerOf(assertion)?.textContent?.trim();
  if (assertionIssuer !== expected.issuer) return `wrong assertion Issuer: ${assertionIssuer ?? '(none)'}`;
  const responseIssuer = issuerOf(root)?.textContent?.trim();
  if (responseIssuer !== undefined && responseIssuer !== expected.issuer) return `wrong response Issuer: ${responseIssuer}`;
  const destination = root.getAttribute('Destination');
  if (destination && destination !== acsUrl) return `wrong Destination: ${destination}`;
  const confirmations = elements(assertion, SAML_ASSERTION, 'SubjectConfirmationData');
  if (confirmations.length === 0) return 'the assertion has no SubjectConfirmationData';
  for (const confirmation of confirmations) {
    const recipient = confirmation.getAttribute('Recipient');
    if (recipient !== acsUrl) return `wrong Recipient: ${recipient ?? '(none)'}`;
  }
  return null;
}

/** The assertion's ID and the end of its validity (the earliest NotOnOrAfter), read from the verified assertion XML. */
export async function assertionIdentity(assertionXml: string): Promise<{ id: string; notOnOrAfter: Date | null }> {
  const doc = await parseDomFromString(assertionXml);
  const assertion = doc.documentElement;
  const id = assertion?.getAttribute('ID');
  if (!assertion || !id) throw new Error('the assertion has no ID');
  const ends = [...elements(assertion, SAML_ASSERTION, 'Conditions'), ...elements(assertion, SAML_ASSERTION, 'SubjectConfirmationData')]
    .map((element) => element.getAttribute('NotOnOrAfter'))
    .filter((value): value is string => !!value)
    .map((value) => new Date(value))
    .filter((date) => !Number.isNaN(date.getTime()));
  const notOnOrAfter = ends.length ? new Date(Math.min(...ends.map((date) => date.getTime()))) : null;
  return { id, notOnOrAfter };
}

/** Attribute names an e-mail address is read from (else a NameID that looks like one). */
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'emailAddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const NAME_ATTRIBUTES = ['displayName', 'name', 'urn:oid:2.16.840.1.113730.3.1.241', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name'];

const firstString = (value: unknown): string | undefined => {
  const first = Array.isArray(value) ? (value as unknown[])[0] : value;
  return typeof first === 'string' && first.trim() ? first.trim() : undefined;
};

/** The e-mail address and display name a verified profile carries. */
export function profileIdentity(profile: Record<string, unknown>, nameId: string): { email: string | undefined; displayName: string | undefined } {
  let email: string | undefined;
  for (const attribute of EMAIL_ATTRIBUTES) email ??= firstString(profile[attribute]);
  if (email === undefined && /^[^@\s]+@[^@\s]+$/.test(nameId)) email = nameId;
  let displayName: string | undefined;
  for (const attribute of NAME_ATTRIBUTES) displayName ??= firstString(profile[attribute]);
  if (displayName === undefined) {
    const first = firstString(profile.firstName) ?? firstString(profile.givenName);
    const last = firstString(profile.lastName) ?? firstString(profile.surname) ?? firstString(profile.sn);
    displayName = [first, last].filter(Boolean).join(' ') || undefined;
  }
  return { email, displayName };
}
