import {
  accountDeletionErrorText,
  ACCOUNT_DELETION_REDIRECT_MS,
  CUSTOM_PLAN_REFUSAL,
  FREE_PLAN_CODE,
  isPaidPlan,
  isCustomPlanCode,
} from '@flotilla/model';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  Stack,
  Typography,
} from '@mui/material';
import type { TFunction } from 'i18next';
import { useId, useState } from 'react';
import { z } from 'zod/mini';
import { useTranslation } from 'react-i18next';
import { TextInput } from '../../../components/form-fields';
import { errorMessage } from '../../../lib/errors';
import { sdk } from '../../../lib/sdk';
import {
  deleteOrganization,
  deleteOwnAccount,
  useAccountDeletionPreflight,
  useOwnAccount,
  type AccountDeletionPreflight,
} from '../api/account';
import { reverify } from '../../../lib/reverify';
import { useMutationForm } from '../../../lib/use-mutation-form';
import '../i18n';
import { paths } from '../../../lib/paths';

type StepStatus = 'pending' | 'running' | 'done' | 'failed';

const STATUS_TEXT = {
  pending: 'account.deletion.status_pending',
  running: 'account.deletion.status_running',
  done: 'account.deletion.status_done',
  failed: 'account.deletion.status_failed',
} as const;

interface Step {
  key: string;
  label: string;
  status: StepStatus;
  note?: string;
  /** Resolves with a note shown beside the step's status, if any. */
  run: () => Promise<string | undefined>;
}

/**
 * Preferences → danger zone → delete account (spec 1 §4, §5, §7): a preflight lists the
 * organizations the user alone administers (deleted with the account) with their plan codes
 * and fleet and device counts; then the steps run one after another, each with its status:
 * verify password, cancel each such organization's subscription, delete those organizations
 * (only when there is more than one, or one that has other members, which the server would
 * not delete with the account), delete the account. Then a success message, 2 s, /login.
 */
export function DeleteAccountSection() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
      <Typography variant="body2" color="text.secondary">
        {t('account.deletion.body')}
      </Typography>
      <Button variant="contained" color="error" onClick={() => setOpen(true)}>
        {t('account.deletion.title')}
      </Button>
      {open && <DeleteAccountDialog onClose={() => setOpen(false)} />}
    </Stack>
  );
}

function stepsFor(preflight: AccountDeletionPreflight, password: string, t: TFunction): Step[] {
  const orgs = preflight.singleAdminOrgs;
  const steps: Step[] = [
    {
      key: 'verify',
      label: t('account.deletion.step_verify'),
      status: 'pending',
      run: async () => {
        await reverify(password);
        return undefined;
      },
    },
  ];
  for (const org of orgs) {
    steps.push({
      key: `subscription-${org.id}`,
      label: t('account.deletion.step_cancel_subscription', { name: org.name }),
      status: 'pending',
      // A paid subscription is cancelled by the server in the account's deletion (issue 18);
      // the free plan has nothing to cancel.
      run: async () =>
        isPaidPlan(preflight.billingPlanCodesByOrg[String(org.id)] ?? FREE_PLAN_CODE) ? t('account.deletion.subscription_cancelled_with_account') : t('account.deletion.no_subscription'),
    });
  }
  if (orgs.length > 1 || orgs.some((o) => o.otherMembers > 0)) {
    steps.push({
      key: 'organizations',
      label: t('account.deletion.step_delete_orgs'),
      status: 'pending',
      run: async () => {
        for (const org of orgs) await deleteOrganization(org.id);
        return undefined;
      },
    });
  }
  steps.push({
    key: 'account',
    label: t('account.deletion.step_delete_account'),
    status: 'pending',
    run: async () => {
      await deleteOwnAccount(password);
      return undefined;
    },
  });
  return steps;
}

function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const account = useOwnAccount();
  const preflight = useAccountDeletionPreflight();
  const [steps, setSteps] = useState<Step[] | null>(null);
  const [error, setError] = useState<string>();
  const [succeeded, setSucceeded] = useState(false);

  // The password is the form's one field; the steps report their own outcome (no toast).
  const { form, onSubmit } = useMutationForm({
    schema: z.object({ password: z.string() }),
    defaultValues: { password: '' },
    submit: ({ password }) => runSteps(password),
  });
  const password = form.watch('password');
  const running = steps !== null && !error && !succeeded;
  const customPlan =
    preflight.data !== undefined && Object.values(preflight.data.billingPlanCodesByOrg).some((code) => isCustomPlanCode(code));
  const loaded = account.data !== undefined && preflight.data !== undefined;
  const noPassword = account.data?.has_password_set === false;
  // Spec 1 §5: enabled only when the data has loaded, a password is typed and no custom plan exists.
  const canConfirm = loaded && !noPassword && !customPlan && password.length > 0 && !running && !succeeded;

  const runSteps = async (password: string) => {
    if (!preflight.data) return;
    const plan = stepsFor(preflight.data, password, t);
    setError(undefined);
    setSteps(plan);
    const update = (i: number, patch: Partial<Step>) =>
      setSteps((current) => current?.map((s, j) => (j === i ? { ...s, ...patch } : s)) ?? null);
    for (const [i, step] of plan.entries()) {
      update(i, { status: 'running' });
      try {
        const note = await step.run();
        update(i, note === undefined ? { status: 'done' } : { status: 'done', note });
      } catch (err) {
        update(i, { status: 'failed' });
        const text = errorMessage(err, t);
        // A mistyped password is the user's to fix; anything else needs support (spec 1 §8).
        setError(step.key === 'verify' ? text : accountDeletionErrorText(text));
        return;
      }
    }
    setSucceeded(true);
    setTimeout(() => {
      void sdk.auth.logout().finally(() => window.location.assign(paths.login()));
    }, ACCOUNT_DELETION_REDIRECT_MS);
  };

  const data = preflight.data;
  return (
    <Dialog open onClose={running || succeeded ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <form
        noValidate
        onSubmit={(e) => {
          if (canConfirm) onSubmit(e);
          else e.preventDefault();
        }}
      >
        <DialogTitle id={titleId}>{t('account.deletion.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText>{t('account.deletion.body')}</DialogContentText>
            {!loaded && !preflight.isError && <Typography variant="body2">{t('account.deletion.loading')}</Typography>}
            {preflight.isError && <Alert severity="error">{errorMessage(preflight.error, t)}</Alert>}
            {data && (
              <>
                {data.singleAdminOrgs.length > 0 ? (
                  <div>
                    <Typography variant="body2">{t('account.deletion.orgs_intro')}</Typography>
                    <List dense aria-label={t('account.deletion.orgs_intro')}>
                      {data.singleAdminOrgs.map((org) => (
                        <ListItem key={org.id} disableGutters>
                          <ListItemText
                            primary={org.name}
                            secondary={
                              org.otherMembers > 0 ? t('account.deletion.org_members', { count: org.otherMembers }) : undefined
                            }
                          />
                        </ListItem>
                      ))}
                    </List>
                    <Typography variant="body2" color="text.secondary">
                      {t('account.deletion.counts', { applications: data.applicationCount, devices: data.deviceCount })}
                    </Typography>
                  </div>
                ) : (
                  <Typography variant="body2">{t('account.deletion.no_orgs')}</Typography>
                )}
              </>
            )}
            {customPlan && <Alert severity="error">{CUSTOM_PLAN_REFUSAL}</Alert>}
            {noPassword ? (
              <Alert severity="warning">{t('account.deletion.no_password')}</Alert>
            ) : (
              <TextInput
                id="delete-account-password"
                type="password"
                label={t('account.deletion.password')}
                autoComplete="current-password"
                {...form.register('password')}
                disabled={running || succeeded}
              />
            )}
            {steps && (
              <List dense aria-label={t('account.deletion.title')}>
                {steps.map((step) => (
                  <ListItem key={step.key} disableGutters data-status={step.status}>
                    <ListItemText
                      primary={step.label}
                      secondary={[t(STATUS_TEXT[step.status]), step.note].filter(Boolean).join(' · ')}
                    />
                  </ListItem>
                ))}
              </List>
            )}
            {error && <Alert severity="error">{error}</Alert>}
            {succeeded && <Alert severity="success">{t('account.deletion.success')}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={running || succeeded}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" color="error" disabled={!canConfirm} loading={running}>
            {t('account.deletion.confirm')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
