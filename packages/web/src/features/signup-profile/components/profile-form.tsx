import { profileProblems, PROFILE_ACCOUNT_TYPES, type ProfileAccountType } from '@flotilla/model';
import { Button, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { SelectInput, TextInput } from '../../../components/form-fields';
import { errorMessage } from '../../../lib/errors';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { useSaveProfile } from '../api/save-profile';
import '../i18n';

/**
 * The profile step (/signup/profile; spec 1 §5): first name, last name, company and account
 * type are required; the same rule (profileProblems) runs on the server.
 */
export function ProfileForm({ onSaved }: { onSaved: () => void }) {
  const { t } = useTranslation();
  const save = useSaveProfile();
  const schema = z
    .object({ first_name: z.string(), last_name: z.string(), company: z.string(), account_type: z.string() })
    .check(
      z.superRefine((value, ctx) => {
        for (const [field, message] of Object.entries(profileProblems(value))) ctx.addIssue({ code: 'custom', message, path: [field] });
      }),
    );
  const { form, onSubmit, submitting } = useMutationForm({
    schema,
    mode: 'onTouched',
    defaultValues: { first_name: '', last_name: '', company: '', account_type: '' },
    submit: (values) =>
      save
        .mutateAsync({
          first_name: values.first_name.trim(),
          last_name: values.last_name.trim(),
          company: values.company.trim(),
          account_type: values.account_type as ProfileAccountType,
        })
        .catch((err: unknown) => {
          throw t('signupProfile.failed_save_profile', { message: errorMessage(err, t) });
        }),
    success: t('signupProfile.saved'),
    onSuccess: onSaved,
  });
  const { register, formState } = form;

  return (
    <Stack component="form" noValidate spacing={2} onSubmit={onSubmit}>
      <Typography color="text.secondary">{t('signupProfile.intro')}</Typography>
      <TextInput {...register('first_name')} id="profile-first-name" label={t('signupProfile.first_name')} autoComplete="given-name" autoFocus error={formState.errors.first_name?.message} />
      <TextInput {...register('last_name')} id="profile-last-name" label={t('signupProfile.last_name')} autoComplete="family-name" error={formState.errors.last_name?.message} />
      <TextInput {...register('company')} id="profile-company" label={t('signupProfile.company')} autoComplete="organization" error={formState.errors.company?.message} />
      <SelectInput {...register('account_type')} id="profile-account-type" label={t('signupProfile.account_type')} error={formState.errors.account_type?.message}>
        <option value="">{t('signupProfile.account_type_choose')}</option>
        {PROFILE_ACCOUNT_TYPES.map((type) => (
          <option key={type} value={type}>
            {t(type === 'personal' ? 'signupProfile.personal' : 'signupProfile.professional')}
          </option>
        ))}
      </SelectInput>
      <Button type="submit" variant="contained" size="large" loading={submitting}>
        {t('signupProfile.save')}
      </Button>
    </Stack>
  );
}
