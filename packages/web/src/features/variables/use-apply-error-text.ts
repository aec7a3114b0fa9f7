import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage, errorStatus } from '../../lib/errors';
import './i18n';

/**
 * The message a failed write leaves on its row: the server's own text (spec 2 §5, §8), except
 * its 409 'Unique key constraint violated', which is said as a duplicate name.
 */
export function useApplyErrorText(): (error: unknown) => string {
  const { t } = useTranslation();
  return useCallback((error: unknown) => (errorStatus(error) === 409 ? t('variables.already_exists') : errorMessage(error, t)), [t]);
}
