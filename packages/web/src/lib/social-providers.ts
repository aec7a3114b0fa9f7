/** Where the browser starts a sign-in with a provider (the API host, spec 1 §2: /auth/{provider}). */
export const socialSignInUrl = (providerId: string) => `/auth/${encodeURIComponent(providerId)}`;

/** The query parameter by which a failed social sign-in or link is sent back to /login or the account details. */
export const SOCIAL_ERROR_PARAM = 'social_error';
