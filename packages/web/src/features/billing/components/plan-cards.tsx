import { formatCents, SEAT_ROLE_LABELS, DEVICE_CLASS_LABELS } from '@flotilla/model';
import { Table, TableBody, TableCell, TableFooter, TableHead, TableRow, Typography } from '@mui/material';
import type { BillingPlanInfo } from 'balena-sdk';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/date-format';
import { cents, cycleOfInterval, nextBill, usageRows, type BillingUsage } from '../billing-view';
import { BillingCard, CardStatus } from './billing-card';

/** `member:developer` → 'Developer', `device:legacy-v1` → 'Legacy device' (spec 3 §9 labels). */
export function resourceLabel(resource: string): string {
  const [kind, name = ''] = resource.split(':');
  if (kind === 'member' && name in SEAT_ROLE_LABELS) return SEAT_ROLE_LABELS[name as keyof typeof SEAT_ROLE_LABELS];
  if (kind === 'device' && name in DEVICE_CLASS_LABELS) return DEVICE_CLASS_LABELS[name as keyof typeof DEVICE_CLASS_LABELS];
  return resource;
}

const FOOTER_CELL = { fontWeight: 600, fontSize: 'inherit', color: 'text.primary' } as const;

interface QueryState<T> {
  data: T | undefined;
  isError: boolean;
  isPending: boolean;
}

/** Spec 3 §2 current plan: itemised charges and the plan total. */
export function CurrentPlanCard({ plan }: { plan: QueryState<BillingPlanInfo> }) {
  const { t } = useTranslation();
  return (
    <BillingCard title={t('billing.current_plan.heading')}>
      {plan.isError ? (
        <CardStatus error>{t('billing.errors.plan')}</CardStatus>
      ) : !plan.data ? (
        <CardStatus>{t('billing.loading')}</CardStatus>
      ) : (
        <>
          <Typography>
            {t('billing.current_plan.plan_line', {
              title: plan.data.title,
              cycle: t(cycleOfInterval(plan.data.intervalUnit) === 'annual' ? 'billing.change.cycle_annual' : 'billing.change.cycle_monthly'),
            })}
          </Typography>
          {plan.data.currentPeriodEndDate && (
            <Typography color="text.secondary">{t('billing.current_plan.period_end', { date: formatDate(plan.data.currentPeriodEndDate) })}</Typography>
          )}
          {plan.data.support?.title && <Typography color="text.secondary">{t('billing.current_plan.support', { support: plan.data.support.title })}</Typography>}
          <Table size="small" aria-label={t('billing.current_plan.heading')} sx={{ mt: 1 }}>
            <TableHead>
              <TableRow>
                <TableCell>{t('billing.current_plan.item')}</TableCell>
                <TableCell align="right">{t('billing.current_plan.quantity')}</TableCell>
                <TableCell align="right">{t('billing.current_plan.unit_price')}</TableCell>
                <TableCell align="right">{t('billing.current_plan.amount')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {/* Seats and devices the plan includes (quantity 0 beyond it) cost nothing: not listed, as add-ons. */}
              {plan.data.billing.charges.filter((charge) => charge.isQuantifiable === false || cents(charge.quantity) > 0).map((charge) => {
                const quantity = charge.isQuantifiable === false ? 1 : cents(charge.quantity);
                return (
                  <TableRow key={`${charge.itemType}:${charge.code}`}>
                    <TableCell>{charge.name}</TableCell>
                    <TableCell align="right">{charge.isQuantifiable === false ? '' : quantity}</TableCell>
                    <TableCell align="right">{formatCents(cents(charge.unitCostCents))}</TableCell>
                    <TableCell align="right">{formatCents(cents(charge.unitCostCents) * quantity)}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
            <TableFooter>
              <TableRow>
                <TableCell colSpan={3} sx={FOOTER_CELL}>
                  {t('billing.current_plan.total')}
                </TableCell>
                <TableCell align="right" data-testid="plan-total" sx={FOOTER_CELL}>
                  {formatCents(cents(plan.data.billing.totalCostCents))}
                </TableCell>
              </TableRow>
            </TableFooter>
          </Table>
        </>
      )}
    </BillingCard>
  );
}

/** Spec 3 §2 add-ons: the prepaid add-on plan, if any. */
export function AddonsCard({ plan }: { plan: QueryState<BillingPlanInfo> }) {
  const { t } = useTranslation();
  const addOns = (plan.data?.addonPlan?.addOns ?? []).filter((a) => cents(a.quantity) > 0);
  return (
    <BillingCard title={t('billing.addons.heading')}>
      {plan.isError ? (
        <CardStatus error>{t('billing.errors.plan')}</CardStatus>
      ) : !plan.data ? (
        <CardStatus>{t('billing.loading')}</CardStatus>
      ) : addOns.length === 0 ? (
        <CardStatus>{t('billing.addons.empty')}</CardStatus>
      ) : (
        <Table size="small" aria-label={t('billing.addons.heading')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('billing.current_plan.item')}</TableCell>
              <TableCell align="right">{t('billing.current_plan.quantity')}</TableCell>
              <TableCell align="right">{t('billing.current_plan.unit_price')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {addOns.map((addOn) => (
              <TableRow key={addOn.code}>
                <TableCell>{resourceLabel(addOn.code)}</TableCell>
                <TableCell align="right">{cents(addOn.quantity)}</TableCell>
                <TableCell align="right">{formatCents(cents(addOn.unitCostCents))}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </BillingCard>
  );
}

/** Spec 3 §2 dynamic usage: description, peak, current, credits, overage, amount; total overage. */
export function UsageCard({ usage }: { usage: QueryState<BillingUsage> }) {
  const { t } = useTranslation();
  const { rows, totalCents } = usageRows(usage.data);
  return (
    <BillingCard title={t('billing.usage.heading')}>
      {usage.isError ? (
        <CardStatus error>{t('billing.errors.usage')}</CardStatus>
      ) : !usage.data ? (
        <CardStatus>{t('billing.loading')}</CardStatus>
      ) : rows.length === 0 ? (
        <CardStatus>{t('billing.usage.empty')}</CardStatus>
      ) : (
        <Table size="small" aria-label={t('billing.usage.heading')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('billing.usage.description')}</TableCell>
              <TableCell align="right">{t('billing.usage.peak')}</TableCell>
              <TableCell align="right">{t('billing.usage.current')}</TableCell>
              <TableCell align="right">{t('billing.usage.credits')}</TableCell>
              <TableCell align="right">{t('billing.usage.overage')}</TableCell>
              <TableCell align="right">{t('billing.usage.amount')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.resource}>
                <TableCell>{resourceLabel(row.resource)}</TableCell>
                <TableCell align="right">{row.peak}</TableCell>
                <TableCell align="right">{row.current}</TableCell>
                <TableCell align="right">{row.credits}</TableCell>
                <TableCell align="right">{row.overage}</TableCell>
                <TableCell align="right">{formatCents(row.amount)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
          <TableFooter>
            <TableRow>
              <TableCell colSpan={5} sx={FOOTER_CELL}>
                {t('billing.usage.total')}
              </TableCell>
              <TableCell align="right" data-testid="usage-total" sx={FOOTER_CELL}>
                {formatCents(totalCents)}
              </TableCell>
            </TableRow>
          </TableFooter>
        </Table>
      )}
    </BillingCard>
  );
}

/** Spec 3 §2 next bill: plan, prepaid add-ons, dynamic usage and an estimated total. */
export function NextBillCard({ plan, usage }: { plan: QueryState<BillingPlanInfo>; usage: QueryState<BillingUsage> }) {
  const { t } = useTranslation();
  if (plan.isError) {
    return (
      <BillingCard title={t('billing.next_bill.heading')}>
        <CardStatus error>{t('billing.errors.plan')}</CardStatus>
      </BillingCard>
    );
  }
  if (!plan.data) {
    return (
      <BillingCard title={t('billing.next_bill.heading')}>
        <CardStatus>{t('billing.loading')}</CardStatus>
      </BillingCard>
    );
  }
  // The plan's own charge; the add-ons are the add-on plan's total (the plan total includes both).
  const planCents = plan.data.billing.charges.filter((c) => c.itemType === 'plan').reduce((sum, c) => sum + cents(c.unitCostCents) * (cents(c.quantity) || 1), 0);
  const bill = nextBill(planCents, cents(plan.data.addonPlan?.billing.totalCostCents), usageRows(usage.data).totalCents);
  const rows: Array<[string, number, string?]> = [
    [t('billing.next_bill.plan'), bill.plan],
    [t('billing.next_bill.addons'), bill.addons],
    [t('billing.next_bill.usage'), bill.usage],
  ];
  return (
    <BillingCard title={t('billing.next_bill.heading')}>
      <Table size="small" aria-label={t('billing.next_bill.heading')}>
        <TableBody>
          {rows.map(([label, value]) => (
            <TableRow key={label}>
              <TableCell component="th" scope="row">
                {label}
              </TableCell>
              <TableCell align="right">{formatCents(value)}</TableCell>
            </TableRow>
          ))}
          <TableRow>
            <TableCell component="th" scope="row" sx={{ fontWeight: 600 }}>
              {t('billing.next_bill.total')}
            </TableCell>
            <TableCell align="right" sx={{ fontWeight: 600 }} data-testid="next-bill-total">
              {formatCents(bill.total)}
            </TableCell>
          </TableRow>
        </TableBody>
      </Table>
    </BillingCard>
  );
}
