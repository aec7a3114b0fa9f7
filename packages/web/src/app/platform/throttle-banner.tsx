import { useTranslation } from 'react-i18next';
import { PlainBanner } from '../../components/plain-banner';
import './i18n-later';

/** Spec 3 §8, HTTP 429: loaded on the first 429 (the API answered, so the chunk can load). */
export default function ThrottleBanner() {
  const { t } = useTranslation();
  return (
    <PlainBanner tone="info" role="status" floating>
      {t('platformLater.throttled')}
    </PlainBanner>
  );
}
