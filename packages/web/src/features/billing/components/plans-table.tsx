import { formatCents, deviceFeature, type BillingCycle, type CataloguePlan, type PlanChangeOutcome } from '@flotilla/model';
import { Button, Table, TableBody, TableCell, TableHead, TableRow, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { planColumns } from '../billing-view';

/** 'Current plan', 'Contact sales' stay on one line in the narrow plan columns. */
const ONE_LINE = { whiteSpace: 'nowrap' } as const;

/** Spec 3 §2 available plans (anchor #billing-plans): cycle toggle, enterprise last, each column's action (spec 3 §4). */
export function PlansTable({
  plans,
  current,
  cycle,
  onCycle,
  onChoose,
  contactSalesHref,
  now,
}: {
  plans: readonly CataloguePlan[];
  current: { code: string; cycle: BillingCycle };
  cycle: BillingCycle;
  onCycle: (cycle: BillingCycle) => void;
  onChoose: (plan: CataloguePlan, cycle: BillingCycle) => void;
  contactSalesHref: string;
  now: Date;
}) {
  const { t } = useTranslation();
  const columns = planColumns(plans, current, cycle, now);
  const actionLabel = (outcome: PlanChangeOutcome) => {
    switch (outcome) {
      case 'current':
        return t('billing.plans.current');
      case 'contact-sales':
        return t('billing.plans.contact_sales');
      case 'cycle-change':
        return t(cycle === 'annual' ? 'billing.plans.cycle_change_annual' : 'billing.plans.cycle_change_monthly');
      case 'upgrade':
        return t('billing.plans.upgrade');
      case 'downgrade':
        return t('billing.plans.downgrade');
    }
  };
  return (
    <>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={cycle}
        aria-label={t('billing.plans.cycle_label')}
        onChange={(_e, value: BillingCycle | null) => value && onCycle(value)}
        sx={{ mb: 1.5 }}
      >
        <ToggleButton value="annual">{t('billing.plans.billed_annually')}</ToggleButton>
        <ToggleButton value="monthly">{t('billing.plans.billed_monthly')}</ToggleButton>
      </ToggleButtonGroup>
      <Table size="small" aria-label={t('billing.plans.heading')} sx={{ overflowX: 'auto', display: 'block' }}>
        <TableHead>
          <TableRow>
            <TableCell />
            {columns.map(({ plan }) => (
              <TableCell key={plan.code} component="th" scope="col" sx={{ fontWeight: 600 }}>
                {plan.title}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          <TableRow>
            <TableCell component="th" scope="row">
              {t('billing.next_bill.plan')}
            </TableCell>
            {columns.map(({ plan, monthlyCents }) => (
              <TableCell key={plan.code}>
                {plan.canSelfServe ? t('billing.plans.per_month', { price: formatCents(monthlyCents) }) : t('billing.plans.contact_sales')}
              </TableCell>
            ))}
          </TableRow>
          <TableRow>
            <TableCell component="th" scope="row">
              {t('billing.devices.heading')}
            </TableCell>
            {columns.map(({ plan }) => (
              <TableCell key={plan.code}>{t('billing.plans.devices_included', { count: plan.includes[deviceFeature('microservices-v1')] ?? 0 })}</TableCell>
            ))}
          </TableRow>
          <TableRow>
            <TableCell component="th" scope="row">
              {t('billing.plans.support_row')}
            </TableCell>
            {columns.map(({ plan }) => (
              <TableCell key={plan.code}>{t('billing.plans.support', { support: plan.supportTier })}</TableCell>
            ))}
          </TableRow>
          <TableRow>
            <TableCell />
            {columns.map(({ plan, outcome }) => {
              const label = actionLabel(outcome);
              return (
                <TableCell key={plan.code}>
                  {outcome === 'contact-sales' ? (
                    <Button href={contactSalesHref} variant="outlined" size="small" sx={ONE_LINE} aria-label={t('billing.plans.choose_named', { action: label, plan: plan.title })}>
                      {label}
                    </Button>
                  ) : (
                    <Button
                      variant={outcome === 'upgrade' ? 'contained' : 'outlined'}
                      size="small"
                      disabled={outcome === 'current'}
                      sx={ONE_LINE}
                      aria-label={t('billing.plans.choose_named', { action: label, plan: plan.title })}
                      onClick={() => onChoose(plan, cycle)}
                    >
                      {label}
                    </Button>
                  )}
                </TableCell>
              );
            })}
          </TableRow>
        </TableBody>
      </Table>
    </>
  );
}
