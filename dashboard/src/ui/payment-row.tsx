import { memo } from 'react';
import { OrderTitle } from './data.js';
import type { PaymentRowData } from '../fragments.js';
import { faDigits } from '../format.js';
import { REVIEW_REASON, label } from '../labels.js';
import { BASE, Link } from '../router.js';
import { Amount } from '../unit.js';
import { DateTime, PaymentStatusBadge } from './common.js';

/** One payment as a row (a card on a phone); `data-status` follows the live stream. */
function Row({ payment }: { payment: PaymentRowData }) {
  return (
    <li className="row" data-payment-id={payment.id} data-status={payment.status}>
      <div className="row-main">
        <Link to={`${BASE}/payments/${payment.id}`} className="row-title">
          <OrderTitle payment={payment} />
        </Link>
        <PaymentStatusBadge status={payment.status} />
        {payment.sandbox && <span className="tag">آزمایشی</span>}
      </div>
      <div className="row-meta">
        <span>
          <Amount rials={payment.amountReceived ?? payment.amountFinal} />
        </span>
        <DateTime iso={payment.createdAt} />
        {payment.payerCardLast4 && <span dir="ltr">**** {faDigits(payment.payerCardLast4)}</span>}
      </div>
      {payment.reviewRequired && <p className="row-flag">نیازمند بررسی: {label(REVIEW_REASON, payment.reviewReason)}</p>}
    </li>
  );
}

/**
 * A list read again (the live stream's resync, a filter, a refetch) brings new objects with the
 * same values: only rows whose shown fields changed render again.
 */
const SHOWN = ['id', 'status', 'orderId', 'amountFinal', 'amountReceived', 'createdAt', 'sandbox', 'payerCardLast4', 'reviewRequired', 'reviewReason'] as const;
export const PaymentRow = memo(Row, (a, b) => SHOWN.every((k) => a.payment[k] === b.payment[k]));
