-- Every trusted deposit asks whether it is the late SMS of a gap the merchant already resolved
-- (src/domain/bank-messages/store/gaps.ts `resolvedGapFor`): those gaps of its card, by place.
CREATE INDEX balance_gaps_resolved_unexplained_idx ON balance_gaps (card_id, to_at)
  WHERE status = 'resolved' AND resolved_payment_id IS NOT NULL AND explained_by_message_id IS NULL;
