import { Box } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { sdk } from '../lib/sdk';

/** Sent when the server has no captcha configured (spec 1 §5: "a dummy is used"). */
export const DUMMY_CAPTCHA_RESPONSE = 'dummy';
const SCRIPT_URL = 'https://www.google.com/recaptcha/api.js?render=explicit';

interface Grecaptcha {
  ready(cb: () => void): void;
  render(el: HTMLElement, opts: { sitekey: string; callback: (response: string) => void; 'expired-callback': () => void }): number;
  reset(id?: number): void;
}
declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

async function getCaptchaSiteKey(): Promise<string | null> {
  const { body } = await sdk.request.send<{ captchaSiteKey?: string | null }>({
    method: 'GET',
    baseUrl: window.location.origin,
    url: '/config/dashboard',
    sendToken: false,
  });
  return body.captchaSiteKey ?? null;
}

let scriptLoading: Promise<void> | undefined;
function loadScript(): Promise<void> {
  scriptLoading ??= new Promise<void>((resolve, reject) => {
    const s = document.createElement('script');
    s.src = SCRIPT_URL;
    s.async = true;
    s.onload = () => resolve();
    s.onerror = () => reject(new Error('captcha script failed to load'));
    document.head.appendChild(s);
  });
  return scriptLoading;
}

/**
 * The sign-up / password-reset captcha: with a site key from the server (GET
 * /config/dashboard, FLOTILLA_CAPTCHA_SITE_KEY) a reCAPTCHA-compatible widget whose response
 * `response()` returns (null until solved); without one, nothing is shown and the dummy
 * response is sent.
 */
export function useCaptcha(): { element: ReactNode; response: () => string | null; reset: () => void } {
  const siteKey = useQuery({ queryKey: ['config', 'dashboard', 'captcha'], queryFn: getCaptchaSiteKey, staleTime: Infinity, retry: 1 });
  const box = useRef<HTMLDivElement>(null);
  const widget = useRef<number | undefined>(undefined);
  const [answer, setAnswer] = useState<string | null>(null);
  const key = siteKey.data ?? null;

  useEffect(() => {
    if (!key || !box.current || widget.current !== undefined) return;
    const el = box.current;
    void loadScript().then(() =>
      window.grecaptcha?.ready(() => {
        if (widget.current !== undefined) return;
        widget.current = window.grecaptcha!.render(el, { sitekey: key, callback: setAnswer, 'expired-callback': () => setAnswer(null) });
      }),
    );
  }, [key]);

  const response = useCallback(() => (key ? answer : DUMMY_CAPTCHA_RESPONSE), [key, answer]);
  const reset = useCallback(() => {
    setAnswer(null);
    if (widget.current !== undefined) window.grecaptcha?.reset(widget.current);
  }, []);
  return { element: key ? <Box ref={box} data-testid="captcha" /> : null, response, reset };
}
