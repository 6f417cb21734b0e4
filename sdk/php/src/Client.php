<?php

declare(strict_types=1);

namespace CardGateway;

/**
 * The gateway's /v1 REST API with a project API key:
 *
 *     $client = new CardGateway\Client('https://pay.example.com', getenv('GATEWAY_API_KEY'));
 *     $payment = $client->payments->create(['amount' => 150000, 'currency' => 'IRT', 'callbackUrl' => '…'], ['idempotency_key' => 'order-1002']);
 *
 * Options: `max_retries` (3), `base_delay_ms` (500), `max_delay_ms` (10000), `max_retry_after`
 * (60 s: a longer Retry-After is not waited for), `timeout` (30 s per attempt), `connect_timeout` (10 s),
 * `on_deprecation` (a callable given ['route', 'deprecation', 'sunset', 'link'] when an answer says
 * its route is deprecated; by default one E_USER_DEPRECATED per route).
 */
final class Client
{
    /** Follows the API: 1.x speaks /v1 (docs/versioning.md). */
    public const VERSION = '1.0.0';

    /** @var Payments */
    public $payments;
    /** @var Refunds */
    public $refunds;

    /** @param array<string, mixed> $options */
    public function __construct(string $baseUrl, string $apiKey, array $options = [])
    {
        $transport = new HttpTransport($baseUrl, $apiKey, $options);
        $this->refunds = new Refunds($transport);
        $this->payments = new Payments($transport, $this->refunds);
    }
}
