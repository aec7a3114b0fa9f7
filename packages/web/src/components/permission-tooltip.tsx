import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Tooltip } from './lazy-tooltip';

/**
 * Spec 2 §6: controls the user may not use stay visible but disabled, with the denial text
 * as a tooltip (`title`: a more specific reason). A disabled button fires no pointer events, so the tooltip sits on a span.
 */
export function PermissionTooltip({ allowed, title, children }: { allowed: boolean; title?: string | undefined; children: ReactElement }) {
  const { t } = useTranslation();
  if (allowed) return children;
  return (
    <Tooltip title={title ?? t('permission_denied')} describeChild>
      <span style={{ display: 'inline-flex' }} tabIndex={0}>
        {children}
      </span>
    </Tooltip>
  );
}
