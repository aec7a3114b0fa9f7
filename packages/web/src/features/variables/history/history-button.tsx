import Button from '@mui/material/Button';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HistoryTarget } from './history-api';
import './i18n';

// The dialog and its query load when first opened.
const VariableHistoryDialog = lazy(async () => ({ default: (await import('./history-dialog')).VariableHistoryDialog }));

/** A variable row's "History" button (every reader of the fleet may use it). */
export function HistoryButton({ target, label = target.name }: { target: HistoryTarget; label?: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)} aria-label={t('variablesHistory.button_name', { name: label })}>
        {t('variablesHistory.button')}
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <VariableHistoryDialog target={target} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
