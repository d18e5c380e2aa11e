/**
 * Settings › Billing (owner): plan, seats used against the plan's band, renewal and state, and
 * checkout through Paddle.js. Paddle.js is loaded on this page only (the server's CSP allows its
 * hosts on this page only); the plan changes when Paddle's verified notification arrives, never
 * because the browser says the checkout completed.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { billingQuery, type BillingOverview } from '../../api/queries/billing';

type SeatBand = BillingOverview['plans'][number]['band'];
import { ErrorNote } from '../../components/states';
import { formatDateTime } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';

const PADDLE_JS = 'https://cdn.paddle.com/paddle/v2/paddle.js';

interface PaddleJs {
  Environment: { set(env: string): void };
  Initialize(options: { token: string; eventCallback?: (event: { name: string }) => void }): void;
  Checkout: { open(options: { items: { priceId: string; quantity: number }[]; customData: BillingOverview['checkout']['customData'] }): void };
}
declare global {
  interface Window {
    Paddle?: PaddleJs;
  }
}

let loading: Promise<PaddleJs> | null = null;
function loadPaddle(): Promise<PaddleJs> {
  loading ??= new Promise<PaddleJs>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = PADDLE_JS;
    script.async = true;
    script.onload = () => (window.Paddle ? resolve(window.Paddle) : reject(new Error('Paddle.js did not load')));
    script.onerror = () => {
      loading = null;
      reject(new Error('Paddle.js could not be loaded; check the connection and retry.'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

const STATE_LABEL: Record<BillingOverview['state'], string> = {
  none: 'No subscription',
  active: 'Active',
  trialing: 'Trial',
  past_due: 'Past due',
  paused: 'Paused',
  canceled: 'Cancelled',
};

const bandText = (band: SeatBand) => (band.max === null ? `${band.min} seats or more` : band.min === band.max ? `${band.min} seat` : `${band.min}–${band.max} seats`);

export function BillingPage() {
  usePageTitle('Billing');
  const [waiting, setWaiting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const billing = useQuery({ ...billingQuery, refetchInterval: waiting ? 1000 : false });
  const data = billing.data?.data;

  // After Paddle reports a completed checkout, the page waits for the server to hear from Paddle.
  useEffect(() => {
    if (waiting && data && (data.state === 'active' || data.state === 'trialing') && !data.readOnly) setWaiting(false);
  }, [waiting, data]);

  // The page keeps its heading when refused (a member who opens it by its address): one h1 per page.
  if (billing.isError)
    return (
      <>
        <h1>Billing</h1>
        <ErrorNote error={billing.error} onRetry={() => void billing.refetch()} />
      </>
    );
  if (!data) return <p className="muted">Loading…</p>;

  const checkout = async (priceId: string) => {
    setProblem(null);
    try {
      const paddle = await loadPaddle();
      if (data.checkout.environment === 'sandbox') paddle.Environment.set('sandbox');
      paddle.Initialize({
        token: data.checkout.clientToken,
        eventCallback: (event) => {
          if (event.name === 'checkout.completed') setWaiting(true);
        },
      });
      paddle.Checkout.open({ items: [{ priceId, quantity: 1 }], customData: data.checkout.customData });
    } catch (error) {
      setProblem((error as Error).message);
    }
  };

  const band = data.seats.band;
  return (
    <section aria-labelledby="billing-title">
      <h1 id="billing-title">Billing</h1>
      {data.notices.readOnly && (
        <p className="notice" role="alert" data-testid="billing-read-only">
          {data.notices.readOnly}
        </p>
      )}
      {data.notices.grace && <p className="notice" data-testid="billing-grace">{data.notices.grace}</p>}
      {data.notices.overBand && <p className="notice" data-testid="billing-over-band">{data.notices.overBand}</p>}
      <dl data-testid="billing-summary">
        <div>
          <dt>Plan</dt>
          <dd data-testid="billing-plan">{data.planName ?? 'None'}</dd>
        </div>
        <div>
          <dt>State</dt>
          <dd data-testid="billing-state">{STATE_LABEL[data.state]}</dd>
        </div>
        <div>
          <dt>Seats used</dt>
          <dd data-testid="billing-seats">
            {data.seats.used} {band ? `of ${band.max === null ? 'unlimited' : band.max} (${bandText(band)})` : 'people in the register'}
          </dd>
        </div>
        <div>
          <dt>Renews</dt>
          <dd data-testid="billing-renews">{data.renewsAt ? formatDateTime(data.renewsAt) : '—'}</dd>
        </div>
      </dl>
      {waiting && (
        <p role="status" data-testid="billing-waiting">
          Payment received by Paddle; waiting for its confirmation…
        </p>
      )}
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      <h2>Plans</h2>
      <p>Plans are priced by seat band: the people in the register. Checkout opens Paddle’s secure form.</p>
      <table data-testid="billing-plans">
        <thead>
          <tr>
            <th scope="col">Plan</th>
            <th scope="col">Seats</th>
            <th scope="col">
              <span className="visually-hidden">Action</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {data.plans.map((p) => (
            <tr key={p.plan}>
              <th scope="row">
                {p.name}
                {p.plan === data.recommendedPlan && <span className="muted"> (fits your register)</span>}
              </th>
              <td>{bandText(p.band)}</td>
              <td>
                {p.plan === data.plan && (data.state === 'active' || data.state === 'trialing') ? (
                  <span>Current plan</span>
                ) : (
                  <button type="button" onClick={() => void checkout(p.priceId)}>
                    Choose {p.name}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
