<?php

declare(strict_types=1);

namespace CardGateway;

/** `$client->refunds` (also `$client->payments->refunds`): refunds you paid back from your bank, recorded on a payment. */
final class Refunds
{
    /** @var HttpTransport */
    private $transport;

    public function __construct(HttpTransport $transport)
    {
        $this->transport = $transport;
    }

    /**
     * POST /v1/payments/{id}/refunds: records one refund; a retry with the same
     * `idempotency_key` records it once. Use a new key for each refund.
     *
     * @param array<string, mixed> $body amount (rials), destinationCard or destinationSheba, reference, note
     * @param array<string, mixed> $options idempotency_key
     * @return array<string, mixed>
     */
    public function create(string $paymentId, array $body, array $options = []): array
    {
        $key = isset($options['idempotency_key']) ? (string) $options['idempotency_key'] : HttpTransport::newKey();
        return $this->transport->send('POST', '/payments/' . rawurlencode($paymentId) . '/refunds', null, $body, $key);
    }

    /** @return array<string, mixed> GET /v1/payments/{id}/refunds: `items`, oldest first */
    public function list(string $paymentId): array
    {
        return $this->transport->send('GET', '/payments/' . rawurlencode($paymentId) . '/refunds');
    }
}
