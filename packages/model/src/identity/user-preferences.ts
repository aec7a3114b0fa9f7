/** Preferences (spec 1 §2, §5, §9): appearance, profile and user API key constants and rules. */

/** Header colours are stored as lowercase `#rrggbb`. */
export const HEADER_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
export const HEADER_COLOR_INVALID = 'The header colour must be a colour such as #1a2b3c';

/** Spec 1 §5: the profile step and tab need all four. */
export const PROFILE_FIELDS = ['first_name', 'last_name', 'company', 'account_type'] as const;
export const PROFILE_FIELD_LABELS: Record<(typeof PROFILE_FIELDS)[number], string> = {
  first_name: 'First name',
  last_name: 'Last name',
  company: 'Company',
  account_type: 'Account type',
};

/** Spec 1 §9: API key expiry presets (days) and the list refresh. */
export const API_KEY_EXPIRY_PRESET_DAYS = [1, 7, 30, 90] as const;
export const API_KEY_LIST_REFETCH_MS = 6000;
export const API_KEY_NAME_REQUIRED = 'API keys must have a name';
export const API_KEY_EXPIRY_IN_PAST = 'The expiry date cannot be in the past';
