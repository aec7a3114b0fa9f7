import { ACCOUNT_TYPES, PROFILE_FIELDS } from '@flotilla/model';
import { Box, Button, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { SelectInput, TextInput } from '../../../components/form-fields';
import { requiredText } from '../../../lib/form-rules';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { useSession } from '../../../lib/get-session';
import { useProfile, useSaveProfile, type Profile } from '../api/account';

/** Spec 1 §5 profile: first name, last name, company and account type, all required (the server checks too). */
export function ProfileTab() {
  const { t } = useTranslation();
  const { data: user } = useSession();
  const profile = useProfile(user?.id);
  const save = useSaveProfile(user?.id);
  const required = (field: (typeof PROFILE_FIELDS)[number]) => requiredText(t('preferences.profile.required', { field: t(`preferences.profile.${field}`) }));
  const { form, onSubmit, submitting, fieldError } = useMutationForm({
    schema: z.object({ first_name: required('first_name'), last_name: required('last_name'), company: required('company'), account_type: required('account_type') }),
    defaultValues: { first_name: '', last_name: '', company: '', account_type: '' },
    // The saved profile, once it has loaded.
    values: profile.data,
    submit: (values) => save.mutateAsync(values as Profile),
    success: t('preferences.profile.saved'),
  });
  const { register } = form;

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label={t('preferences.profile.title')} sx={{ maxWidth: 520 }}>
      <Stack spacing={2}>
        <Typography variant="h6" component="h2">
          {t('preferences.profile.title')}
        </Typography>
        <TextInput {...register('first_name')} id="profile-first-name" label={t('preferences.profile.first_name')} autoComplete="given-name" error={fieldError('first_name')} />
        <TextInput {...register('last_name')} id="profile-last-name" label={t('preferences.profile.last_name')} autoComplete="family-name" error={fieldError('last_name')} />
        <TextInput {...register('company')} id="profile-company" label={t('preferences.profile.company')} autoComplete="organization" error={fieldError('company')} />
        <SelectInput {...register('account_type')} id="profile-account-type" label={t('preferences.profile.account_type')} error={fieldError('account_type')}>
          <option value="" disabled>
            —
          </option>
          {ACCOUNT_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`preferences.profile.${type}`)}
            </option>
          ))}
        </SelectInput>
        <Box>
          <Button type="submit" variant="contained" loading={submitting} disabled={profile.isPending}>
            {t('preferences.profile.save')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
