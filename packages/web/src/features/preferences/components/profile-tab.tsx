import { ACCOUNT_TYPES, PROFILE_FIELDS } from '@flotilla/model';
import { Box, Button, Stack, Typography } from '@mui/material';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectInput, TextInput } from '../../../components/form-fields';
import { useNotify } from '../../../lib/notify';
import { useSession } from '../../auth/api/get-session';
import { useProfile, useSaveProfile, type Profile } from '../api/account';

/** Spec 1 §5 profile: first name, last name, company and account type, all required (the server checks too). */
export function ProfileTab() {
  const { t } = useTranslation();
  const notify = useNotify();
  const { data: user } = useSession();
  const profile = useProfile(user?.id);
  const save = useSaveProfile(user?.id);
  const [form, setForm] = useState<Profile>({ first_name: '', last_name: '', company: '', account_type: '' });
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (profile.data) setForm(profile.data);
  }, [profile.data]);

  const missing = (field: (typeof PROFILE_FIELDS)[number]) =>
    touched && form[field].trim() === '' ? t('preferences.profile.required', { field: t(`preferences.profile.${field}`) }) : undefined;
  const set = (field: keyof Profile) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [field]: e.target.value }));

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setTouched(true);
    if (PROFILE_FIELDS.some((f) => form[f].trim() === '')) return;
    try {
      await save.mutateAsync({
        first_name: form.first_name.trim(),
        last_name: form.last_name.trim(),
        company: form.company.trim(),
        account_type: form.account_type,
      });
      notify.success(t('preferences.profile.saved'));
    } catch (err) {
      notify.error(err);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(e: FormEvent<HTMLFormElement>) => void onSubmit(e)} aria-label={t('preferences.profile.title')} sx={{ maxWidth: 520 }}>
      <Stack spacing={2}>
        <Typography variant="h6" component="h2">
          {t('preferences.profile.title')}
        </Typography>
        <TextInput id="profile-first-name" label={t('preferences.profile.first_name')} value={form.first_name} onChange={set('first_name')} autoComplete="given-name" error={missing('first_name')} />
        <TextInput id="profile-last-name" label={t('preferences.profile.last_name')} value={form.last_name} onChange={set('last_name')} autoComplete="family-name" error={missing('last_name')} />
        <TextInput id="profile-company" label={t('preferences.profile.company')} value={form.company} onChange={set('company')} autoComplete="organization" error={missing('company')} />
        <SelectInput id="profile-account-type" label={t('preferences.profile.account_type')} value={form.account_type} onChange={set('account_type')} error={missing('account_type')}>
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
          <Button type="submit" variant="contained" loading={save.isPending} disabled={profile.isPending}>
            {t('preferences.profile.save')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
