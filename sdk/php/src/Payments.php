<?php

declare(strict_types=1);

namespace CardGateway;

/**
 * `$client->payments`. Every method returns the decoded JSON answer as an array (fields the API
 * adds later simply appear in it) or throws ApiException.
 */
final class Payments
{
    /** @var HttpTransport */
    private $transport;
    /** @var Refunds the same object as `$client->refunds` */
    public $refunds;

    public function __construct(HttpTransport $transport, Refunds $refunds)
    {
        $this->transport = $transport;
        $this->refunds = $refunds;
    }

    /**
     * POST /v1/payments: the payment with `checkoutUrl`; send the payer there.
     * `$options['idempotency_key']`: a repeat with it returns the first answer (24 h); without one
     * the SDK makes one per call and resends it on every retry of that call.
     *
     * @param array<string, mixed> $body amount, currency (IRR|IRT), callbackUrl, orderId, description, payerPhone, metadata
     * @param array<string, mixed> $options
     * @return array<string, mixed>
     */
    public function create(array $body, array $options = []): array
    {
        return $this->transport->send('POST', '/payments', null, $body, self::key($options));
    }

    /** @return array<string, mixed> GET /v1/payments/{id} */
    public function get(string $id): array
    {
        return $this->transport->send('GET', '/payments/' . rawurlencode($id));
    }

    /**
     * GET /v1/payments: one page, newest first (`items`, `page`, `pageSize`, `total`).
     *
     * @param array<string, mixed> $params status, orderId, from, to, reviewRequired, reported, amount, cardLast4, page, pageSize
     * @return array<string, mixed>
     */
    public function list(array $params = []): array
    {
        return $this->transport->send('GET', '/payments', $params);
    }

    /**
     * Every payment the filters match, page after page (a generator: `foreach ($client->payments->iterate(['status' => 'confirmed']) as $p)`).
     *
     * @param array<string, mixed> $params
     * @return \Generator<int, array<string, mixed>>
     */
    public function iterate(array $params = []): \Generator
    {
        $seen = [];
        for ($page = (int) ($params['page'] ?? 1); ; $page++) {
            $answer = $this->list(['page' => $page] + $params);
            $items = $answer['items'] ?? [];
            foreach ($items as $payment) {
                if (isset($seen[$payment['id']])) {
                    continue; // a payment created meanwhile pushed it onto this page
                }
                $seen[$payment['id']] = true;
                yield $payment;
            }
            if ($items === [] || $page * (int) $answer['pageSize'] >= (int) $answer['total']) {
                return;
            }
        }
    }

    /**
     * POST /v1/payments/{id}/verify with the amount you stored with the order: fulfil only when
     * `verified` is true. An amount that is not the payment's throws ApiException 409
     * `amount_mismatch` (getDetails(): amountRequested, given, in rials). $amount null: no check.
     *
     * @param int|string|null $amount in $currency (IRR, rials, by default; IRT, toman)
     * @param array<string, mixed> $options idempotency_key
     * @return array<string, mixed>
     */
    public function verify(string $id, $amount = null, ?string $currency = null, array $options = []): array
    {
        $body = [];
        if ($amount !== null) {
            $body['amount'] = is_int($amount) ? $amount : (string) $amount;
        }
        if ($currency !== null) {
            $body['currency'] = $currency;
        }
        return $this->transport->send('POST', '/payments/' . rawurlencode($id) . '/verify', null, $body, self::key($options));
    }

    /**
     * POST /v1/payments/{id}/reject: ends a pending payment as rejected (409 `invalid_state` otherwise).
     *
     * @param array<string, mixed> $options idempotency_key
     * @return array<string, mixed>
     */
    public function reject(string $id, string $reason = 'Rejected by the shop', array $options = []): array
    {
        return $this->transport->send('POST', '/payments/' . rawurlencode($id) . '/reject', null, ['reason' => $reason], self::key($options));
    }

    /** @param array<string, mixed> $options */
    private static function key(array $options): string
    {
        return isset($options['idempotency_key']) ? (string) $options['idempotency_key'] : HttpTransport::newKey();
    }
}
