import type { ReactNode } from 'react';
import { useQuery } from 'urql';
import { Data, Name, OrderTitle } from '../ui/data.js';
import { BankMessageFragment, PaymentRowFragment } from '../fragments.js';
import { graphql, type ResultOf } from '../graphql.js';
import { faDigits, faNumber } from '../format.js';
import { ACTOR_KIND, AUDIT_ACTION, CANDIDATE_REASON, REVIEW_REASON, known, label } from '../labels.js';
import { usePaymentEvents } from '../live.js';
import { useTitle } from '../router.js';
import { ReadOnlyNote } from '../role.js';
import { Amount } from '../unit.js';
import { AttachForm, ConfirmForm, RefundForm, RejectForm } from '../ui/actions.js';
import { DateTime, Empty, ErrorNote, Facts, Loading, PageTitle, PaymentStatusBadge, Section } from '../ui/common.js';
import { MessageEvidence } from '../ui/message-card.js';
import { Deliveries, DeliveryFragment } from '../ui/deliveries.js';

const PaymentDetail = graphql(
  `
    query DashboardPayment($id: ID!) {
      payment(id: $id) {
        ...PaymentRow
        code
        token
        checkoutUrl
        callbackUrl
        description
        confirmationSource
        manualNote
        payerPhone
        payerTrackingNumber
        bankMessageId
        verifiedAt
        verifyCount
        updatedAt
        refunds {
          id
          amount
          destinationCard
          destinationSheba
          reference
          note
          createdAt
        }
        candidateMessages {
          reason
          bankMessage {
            ...BankMessageCard
          }
        }
      }
      deliveries: webhookDeliveries(paymentId: $id, first: 10) {
        edges {
          node {
            ...Delivery
          }
        }
      }
      audit: auditEvents(subjectId: $id, first: 20) {
        edges {
          node {
            id
            at
            action
            note
            actor {
              kind
              label
            }
          }
        }
      }
    }
  `,
  [PaymentRowFragment, BankMessageFragment, DeliveryFragment],
);

const Evidence = graphql(
  `
    query DashboardPaymentEvidence($id: ID!) {
      node(id: $id) {
        ... on BankMessage {
          ...BankMessageCard
        }
      }
    }
  `,
  [BankMessageFragment],
);

type Detail = NonNullable<ResultOf<typeof PaymentDetail>['payment']>;
type Entry = { at: string; text: ReactNode; who?: ReactNode };

/** What happened to the payment, oldest first: its own time stamps and the audit log's decisions. */
function timeline(payment: Detail, audit: ResultOf<typeof PaymentDetail>['audit']): Entry[] {
  const entries: Entry[] = [{ at: payment.createdAt, text: 'ساخته شد' }];
  if (payment.payerReportedPaidAt) entries.push({ at: payment.payerReportedPaidAt, text: 'پرداخت‌کننده واریز را گزارش داد' });
  if (payment.status === 'expired') entries.push({ at: payment.expiresAt, text: 'منقضی شد' });
  if (payment.confirmedAt) {
    const how = payment.confirmationSource === 'manual' ? 'به دست پذیرنده' : 'با پیامک بانک';
    entries.push({ at: payment.confirmedAt, text: `تأیید شد ${how}${payment.confirmedLate ? ' (پس از مهلت دیرکرد)' : ''}` });
  }
  if (payment.verifiedAt) entries.push({ at: payment.verifiedAt, text: 'فروشگاه نتیجه را استعلام کرد' });
  for (const refund of payment.refunds) entries.push({ at: refund.createdAt, text: 'بازپرداخت ثبت شد' });
  for (const { node } of audit.edges) {
    const action = known(AUDIT_ACTION, node.action);
    entries.push({
      at: node.at,
      text: (
        <>
          {action ?? <Data>{node.action}</Data>}
          {node.note && (
            <>
              {' — '}
              <Name>{node.note}</Name>
            </>
          )}
        </>
      ),
      who: (
        <>
          {label(ACTOR_KIND, node.actor.kind)}
          {node.actor.kind === 'user' || node.actor.kind === 'merchant_key' || node.actor.kind === 'project_key' ? (
            <>
              : <Data>{node.actor.label}</Data>
            </>
          ) : null}
        </>
      ),
    });
  }
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}

function ConfirmingMessage({ id }: { id: string }) {
  const [result] = useQuery({ query: Evidence, variables: { id } });
  const node = result.data?.node;
  if (!node) return result.error ? <ErrorNote error={result.error} /> : <Loading />;
  return 'body' in node ? <MessageEvidence message={node} /> : null;
}

export function PaymentPage({ id }: { id: string }) {
  useTitle('پرداخت');
  const [result, refetch] = useQuery({ query: PaymentDetail, variables: { id } });
  usePaymentEvents((event) => {
    if (!event || event.payment.id === id) refetch({ requestPolicy: 'network-only' });
  });
  if (!result.data) return result.error ? <ErrorNote error={result.error} /> : <Loading />;
  const payment = result.data.payment;
  if (!payment) return <ErrorNote text="این پرداخت پیدا نشد." />;
  const open = payment.status === 'pending' || payment.status === 'expired' || payment.status === 'canceled';
  return (
    <article className="payment" data-payment-id={payment.id} data-status={payment.status}>
      <PageTitle>
        <OrderTitle payment={payment} />
      </PageTitle>
      <Section title="خلاصه" actions={<PaymentStatusBadge status={payment.status} />}>
        <Facts
          items={[
            ['مبلغ درخواستی', <Amount rials={payment.amountRequested} />],
            ['مبلغ نهایی (با کد)', <Amount rials={payment.amountFinal} />],
            ['کد یکتا', `${faNumber(payment.code)} ریال`],
            ['دریافت‌شده', <Amount rials={payment.amountReceived} />],
            ['بازپرداخت‌شده', <Amount rials={payment.refundedAmount} />],
            ['ساخته شده', <DateTime iso={payment.createdAt} />],
            ['انقضا', <DateTime iso={payment.expiresAt} />],
            ['تأیید', <DateTime iso={payment.confirmedAt} />],
            ['کارت پرداخت‌کننده', payment.payerCardLast4 ? <Data>**** {payment.payerCardLast4}</Data> : '—'],
            ['پیگیری پرداخت‌کننده', payment.payerTrackingNumber ? <Data>{payment.payerTrackingNumber}</Data> : '—'],
            ['تلفن پرداخت‌کننده', payment.payerPhone ? <Data>{payment.payerPhone}</Data> : '—'],
            ['یادداشت پذیرنده', payment.manualNote ? <Name>{payment.manualNote}</Name> : '—'],
            ['شناسه', <Data className="code">{payment.id}</Data>],
          ]}
        />
        {payment.reviewRequired && (
          <p className="warn" role="status">
            نیازمند تصمیم شما: {label(REVIEW_REASON, payment.reviewReason)}
          </p>
        )}
      </Section>

      <Section title="کارها">
        <ReadOnlyNote />
        {payment.status === 'pending' || payment.status === 'expired' ? (
          <ConfirmForm paymentId={payment.id} expired={payment.status === 'expired'} amount={payment.amountFinal} order={payment} />
        ) : null}
        {payment.status === 'pending' && <RejectForm paymentId={payment.id} />}
        {payment.status === 'confirmed' && <RefundForm paymentId={payment.id} order={payment} />}
        {!open && payment.status !== 'confirmed' && <Empty>این پرداخت پایان یافته است.</Empty>}
      </Section>

      {payment.bankMessageId && (
        <Section title="شواهد: پیامک واریز">
          <ConfirmingMessage id={payment.bankMessageId} />
        </Section>
      )}

      {open && (
        <Section title="واریزهای احتمالی">
          {payment.candidateMessages.length === 0 && <Empty>واریز بی‌صاحبی که با این پرداخت جور باشد نیست.</Empty>}
          <ul className="rows">
            {payment.candidateMessages.map(({ reason, bankMessage }) => (
              <li key={bankMessage.id} className="row candidate" data-bank-message-id={bankMessage.id}>
                <p className="tag">{label(CANDIDATE_REASON, reason)}</p>
                <MessageEvidence message={bankMessage} />
                <AttachForm messageId={bankMessage.id} paymentId={payment.id} label="این واریز پول همین پرداخت است" amount={bankMessage.amount} order={payment} />
              </li>
            ))}
          </ul>
        </Section>
      )}

      {payment.refunds.length > 0 && (
        <Section title="بازپرداخت‌ها">
          <ul className="rows">
            {payment.refunds.map((r) => (
              <li key={r.id} className="row">
                <div className="row-main">
                  <Amount rials={r.amount} />
                  <DateTime iso={r.createdAt} />
                </div>
                <p className="muted" dir="auto" translate="no">
                  {[r.destinationCard, r.destinationSheba, r.reference, r.note].filter(Boolean).join(' · ')}
                </p>
              </li>
            ))}
          </ul>
        </Section>
      )}

      <Section title="رویدادها">
        <ol className="timeline">
          {timeline(payment, result.data.audit).map((entry, i) => (
            <li key={`${entry.at}-${i}`}>
              <DateTime iso={entry.at} /> <span>{entry.text}</span>
              {entry.who && <span className="muted"> ({entry.who})</span>}
            </li>
          ))}
        </ol>
      </Section>

      <Section title="وب‌هوک‌ها">
        <Deliveries items={result.data.deliveries.edges.map((e) => e.node)} />
      </Section>
    </article>
  );
}
