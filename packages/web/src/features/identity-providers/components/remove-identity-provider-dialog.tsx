import { IDP_BLOCKED_BY_SAML_ACCOUNTS } from '@flotilla/model';
import { Alert, Button } from '@mui/material';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog';
import { TypeToConfirmDialog } from '../../../components/type-to-confirm-dialog';
import { useSamlAccountCount } from '../api/queries';

interface Props {
  identityProviderId: number;
  ssoIdentifier: string;
  onConfirm: () => Promise<unknown>;
  onRemoved: () => void;
  onClose: () => void;
}

/**
 * Spec 1 §4: removal is blocked while the provider has SAML accounts (the count is asked
 * when the dialog opens; the server refuses it too); otherwise the user types the SSO
 * identifier to confirm.
 */
export function RemoveIdentityProviderDialog({ identityProviderId, ssoIdentifier, onConfirm, onRemoved, onClose }: Props) {
  const { t } = useTranslation();
  const inputId = useId();
  const count = useSamlAccountCount(identityProviderId);
  if (count.data === undefined || count.data > 0) {
    return (
      <FormDialog
        title={t('identity_providers.remove_title')}
        submitLabel={t('common.remove')}
        onClose={onClose}
        actions={<Button onClick={onClose}>{t('common.close')}</Button>}
      >
        {count.isError ? (
          <Alert severity="error">{t('identity_providers.load_failed')}</Alert>
        ) : count.data === undefined ? (
          <Alert severity="info">{t('identity_providers.counting_accounts')}</Alert>
        ) : (
          <Alert severity="warning">{IDP_BLOCKED_BY_SAML_ACCOUNTS(count.data)}</Alert>
        )}
      </FormDialog>
    );
  }
  return (
    <TypeToConfirmDialog
      title={t('identity_providers.remove_title')}
      warning={t('identity_providers.remove_warning', { identifier: ssoIdentifier })}
      expected={ssoIdentifier}
      label={t('identity_providers.remove_type')}
      hint={t('identity_providers.remove_hint', { identifier: ssoIdentifier })}
      emptyHint={t('identity_providers.remove_empty_hint')}
      submitLabel={t('common.remove')}
      inputId={inputId}
      onConfirm={onConfirm}
      success={t('identity_providers.removed')}
      onSuccess={onRemoved}
      onClose={onClose}
    />
  );
}
