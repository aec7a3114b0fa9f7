/**
 * Stripe.js, loaded only from the URL the server configures (`/config/dashboard` stripeJsUrl;
 * the CSP allows exactly that origin). The few calls the payment form makes, typed here.
 */

export interface StripeElement {
  mount(el: HTMLElement): void;
  destroy(): void;
}
export interface StripeElements {
  create(type: 'payment', options?: object): StripeElement;
  create(type: 'address', options: object): StripeElement;
  submit(): Promise<{ error?: { message?: string } }>;
}
export interface StripeClient {
  elements(options: object): StripeElements;
  confirmSetup(options: {
    elements: StripeElements;
    clientSecret: string;
    confirmParams: { return_url: string };
    redirect: 'if_required';
  }): Promise<{ error?: { message?: string }; setupIntent?: { id: string; status: string } }>;
}
type StripeFactory = (publishableKey: string) => StripeClient;

declare global {
  interface Window {
    Stripe?: StripeFactory;
  }
}

const loading = new Map<string, Promise<StripeFactory>>();

/** Adds the script once per URL; rejects when it cannot load (spec 3 §8 'error loading billing api'). */
export function loadStripe(url: string): Promise<StripeFactory> {
  let promise = loading.get(url);
  if (!promise) {
    promise = new Promise<StripeFactory>((resolve, reject) => {
      if (window.Stripe) {
        resolve(window.Stripe);
        return;
      }
      const script = document.createElement('script');
      script.src = url;
      script.async = true;
      script.onload = () => (window.Stripe ? resolve(window.Stripe) : reject(new Error('Stripe.js did not define Stripe')));
      script.onerror = () => reject(new Error('Stripe.js failed to load'));
      document.head.appendChild(script);
    });
    promise.catch(() => loading.delete(url));
    loading.set(url, promise);
  }
  return promise;
}

/** Spec 3 §4: the setup is in US dollars, for later off-session use (a deferred setup intent). */
export const ELEMENTS_OPTIONS = { mode: 'setup', currency: 'usd', setupFutureUsage: 'off_session' } as const;
/** Spec 3 §5: the address element asks a billing address, the name in two, the phone always. */
export const ADDRESS_ELEMENT_OPTIONS = { mode: 'billing', display: { name: 'split' }, fields: { phone: 'always' } } as const;
