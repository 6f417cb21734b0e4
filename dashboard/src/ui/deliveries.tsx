import { useMutation } from 'urql';
import { faNumber } from '../format.js';
import { graphql, type ResultOf } from '../graphql.js';
import { DELIVERY_STATUS, EVENT_TYPE, label } from '../labels.js';
import { DateTime, Empty, ErrorNote } from './common.js';

export const DeliveryFragment = graphql(`
  fragment Delivery on WebhookDelivery {
    id
    eventType
    status
    test
    paymentId
    attemptCount
    createdAt
    deliveredAt
    lastAttemptAt
    nextAttemptAt
    attempts {
      attemptNumber
      responseStatus
      error
      startedAt
      durationMs
      manual
    }
  }
`);
type Delivery = ResultOf<typeof DeliveryFragment>;

const Redeliver = graphql(
  `
    mutation DashboardRedeliver($deliveryId: ID!) {
      redeliverWebhook(deliveryId: $deliveryId) {
        ...Delivery
      }
    }
  `,
  [DeliveryFragment],
);

function DeliveryItem({ delivery }: { delivery: Delivery }) {
  const [state, redeliver] = useMutation(Redeliver);
  const last = delivery.attempts[delivery.attempts.length - 1];
  return (
    <li className="row" data-delivery-id={delivery.id} data-delivery-status={delivery.status}>
      <div className="row-main">
        <strong>{label(EVENT_TYPE, delivery.eventType)}</strong>
        <span className={`status status-delivery-${delivery.status}`}>{label(DELIVERY_STATUS, delivery.status)}</span>
        {delivery.test && <span className="tag">آزمایشی</span>}
      </div>
      <div className="row-meta">
        <DateTime iso={delivery.createdAt} />
        <span>{faNumber(delivery.attemptCount)} تلاش</span>
        {last && <span dir="ltr">{last.responseStatus ? `HTTP ${last.responseStatus}` : (last.error ?? '')}</span>}
      </div>
      <ErrorNote error={state.error} />
      <button type="button" className="secondary small" disabled={state.fetching} onClick={() => void redeliver({ deliveryId: delivery.id })}>
        {state.data ? 'دوباره فرستاده شد' : 'ارسال دوباره'}
      </button>
    </li>
  );
}

export function Deliveries({ items }: { items: Delivery[] }) {
  if (items.length === 0) return <Empty>هنوز وب‌هوکی فرستاده نشده است.</Empty>;
  return (
    <ul className="rows">
      {items.map((d) => (
        <DeliveryItem key={d.id} delivery={d} />
      ))}
    </ul>
  );
}
