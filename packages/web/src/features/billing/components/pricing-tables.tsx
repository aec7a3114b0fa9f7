import { DEVICE_CLASS_LABELS, FREE_DEVICE_ALLOWANCE, SEAT_ROLES, deviceFeature, formatCents, isPaidPlan, seatFeature, type CataloguePlan } from '@flotilla/model';
import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { resourceLabel } from './plan-cards';

/** Spec 3 §6 additional team-member pricing (administrator first), from the plan's add-ons. */
export function SeatPricingTable({ plan }: { plan: CataloguePlan }) {
  const { t } = useTranslation();
  const roles = [...SEAT_ROLES].reverse();
  return (
    <Table size="small" aria-label={t('billing.seats.heading')}>
      <TableHead>
        <TableRow>
          <TableCell>{t('billing.seats.role')}</TableCell>
          <TableCell align="right">{t('billing.seats.price')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {roles.map((role) => {
          const price = plan.addons[seatFeature(role)] ?? 0;
          return (
            <TableRow key={role}>
              <TableCell>{resourceLabel(seatFeature(role))}</TableCell>
              <TableCell align="right">{price > 0 ? formatCents(price) : t('billing.seats.unlimited')}</TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

const PRICED_CLASSES = ['legacy-v1', 'microservices-v1'] as const;

/** Spec 3 §9 additional device pricing: per paid plan, legacy and microservices devices per month. */
export function DevicePricingTable({ plans }: { plans: readonly CataloguePlan[] }) {
  const { t } = useTranslation();
  const paid = plans.filter((p) => isPaidPlan(p.code) && PRICED_CLASSES.some((c) => (p.addons[deviceFeature(c)] ?? 0) > 0));
  return (
    <>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {t('billing.devices.first_free', { count: FREE_DEVICE_ALLOWANCE })}
      </Typography>
      <Table size="small" aria-label={t('billing.devices.heading')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('billing.devices.plan')}</TableCell>
            {PRICED_CLASSES.map((c) => (
              <TableCell key={c} align="right">
                {DEVICE_CLASS_LABELS[c]}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {paid.map((plan) => (
            <TableRow key={plan.code}>
              <TableCell>{plan.title}</TableCell>
              {PRICED_CLASSES.map((c) => (
                <TableCell key={c} align="right">
                  {t('billing.plans.per_month', { price: formatCents(plan.addons[deviceFeature(c)] ?? 0) })}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
}
