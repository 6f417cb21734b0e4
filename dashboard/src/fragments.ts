import { graphql, type ResultOf } from './graphql.js';

export const PaymentRowFragment = graphql(`
  fragment PaymentRow on Payment {
    id
    status
    orderId
    amountRequested
    amountFinal
    amountReceived
    refundedAmount
    currency
    createdAt
    confirmedAt
    expiresAt
    reviewRequired
    reviewReason
    sandbox
    confirmedLate
    payerCardLast4
    payerReportedPaidAt
  }
`);
export type PaymentRowData = ResultOf<typeof PaymentRowFragment>;

export const BankMessageFragment = graphql(`
  fragment BankMessageCard on BankMessage {
    id
    status
    statusReason
    reviewReason
    amount
    body
    sender
    bankCode
    bankTime
    receivedAt
    createdAt
    accountHint
    reference
    simulated
    paymentId
    deviceId
    decisionNote
  }
`);
export type BankMessageData = ResultOf<typeof BankMessageFragment>;
