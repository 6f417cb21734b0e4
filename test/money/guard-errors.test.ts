import { describe, expect, it } from 'vitest';
import { isMoneyGuard } from '../../src/db/errors.js';
import { toAppError } from '../../src/error-translator.js';

describe('a money guard refusing a write', () => {
  it('is internal_error, never passed off as a caller’s bad input', () => {
    const guard = Object.assign(new Error('payment x: confirmed after its late window'), { code: 'GWM01' });
    expect(isMoneyGuard(guard)).toBe(true);
    expect(toAppError(guard).code).toBe('internal_error');
    const check = Object.assign(new Error('new row for relation "payments" violates check constraint "payments_released_only_final_unconfirmed"'), { code: '23514' });
    expect(toAppError(check).code).toBe('internal_error');
  });

  it('while an ordinary check violation stays the caller’s invalid_request', () => {
    const input = Object.assign(new Error('new row for relation "cards" violates check constraint "cards_card_number_check"'), { code: '23514' });
    expect(isMoneyGuard(input)).toBe(false);
    expect(toAppError(input).code).toBe('invalid_request');
  });
});
