<?php

declare(strict_types=1);

namespace CardGateway\Tests;

use CardGateway\SignatureException;
use CardGateway\Webhook;
use PHPUnit\Framework\TestCase;

/** Webhook::verify on a real delivery of the service (its test event), then on altered copies of it. */
final class WebhookTest extends TestCase
{
    /** @var string */
    private $body;
    /** @var string */
    private $header;
    /** @var string */
    private $secret;
    /** @var int */
    private $t;

    protected function setUp(): void
    {
        $this->body = (string) file_get_contents(Support::env('GATEWAY_WEBHOOK_BODY_FILE'));
        $this->header = Support::env('GATEWAY_WEBHOOK_HEADER');
        $this->secret = Support::env('GATEWAY_WEBHOOK_SECRET');
        preg_match('/t=(\d+)/', $this->header, $m);
        $this->t = (int) $m[1];
    }

    private function reason(string $body, string $header, string $secret, int $tolerance = 300, ?int $now = null): string
    {
        try {
            Webhook::verify($body, $header, $secret, $tolerance, $now);
        } catch (SignatureException $e) {
            return $e->getReason();
        }
        self::fail('the delivery was accepted');
    }

    public function testAcceptsTheDeliveryAndReturnsTheEvent(): void
    {
        $event = Webhook::verify($this->body, $this->header, $this->secret);
        self::assertSame('payment.confirmed', $event['event']);
        self::assertTrue($event['metadata']['test']);
        self::assertNotEmpty($event['deliveryId']);
    }

    public function testRefusesTamperedBadSecretStaleAndMalformed(): void
    {
        self::assertSame('signature_mismatch', $this->reason(str_replace('confirmed', 'canceled', $this->body), $this->header, $this->secret));
        self::assertSame('signature_mismatch', $this->reason($this->body . ' ', $this->header, $this->secret));
        self::assertSame('signature_mismatch', $this->reason($this->body, $this->header, 'whsec_not-the-secret'));
        self::assertSame('timestamp_out_of_tolerance', $this->reason($this->body, $this->header, $this->secret, 300, $this->t + 301));
        self::assertSame('timestamp_out_of_tolerance', $this->reason($this->body, $this->header, $this->secret, 300, $this->t - 301));
        self::assertSame('timestamp_out_of_tolerance', $this->reason($this->body, $this->header, $this->secret, 10, $this->t + 11));
        self::assertSame('payment.confirmed', Webhook::verify($this->body, $this->header, $this->secret, 10, $this->t + 9)['event']);
        self::assertSame('missing_header', $this->reason($this->body, '', $this->secret));
        self::assertSame('malformed_header', $this->reason($this->body, 'v1=abc', $this->secret));
        self::assertSame('malformed_header', $this->reason($this->body, (string) preg_replace('/t=\d+/', 't=soon', $this->header), $this->secret));
    }

    public function testChecksBeforeDecoding(): void
    {
        self::assertSame('signature_mismatch', $this->reason('{not json', $this->header, $this->secret));
        self::assertSame('timestamp_out_of_tolerance', $this->reason('{not json', $this->header, $this->secret, 300, $this->t + 999));
    }

    public function testEitherSecretDuringARotationAndUnknownEventsComeThrough(): void
    {
        $t = time();
        $body = json_encode(['event' => 'payment.something_new', 'newField' => ['nested' => 1], 'deliveryId' => 'd', 'sentAt' => gmdate('c')]);
        $sign = function (string $secret) use ($t, $body): string {
            return hash_hmac('sha256', $t . '.' . $body, $secret);
        };
        $header = "t=$t,v1=" . $sign('new-secret') . ',v1=' . $sign('old-secret') . ',v2=future-scheme';
        self::assertSame(['nested' => 1], Webhook::verify($body, $header, 'old-secret')['newField']);
        self::assertSame('payment.something_new', Webhook::verify($body, $header, 'new-secret')['event']);
        self::assertSame('signature_mismatch', $this->reason($body, $header, 'third-secret'));
    }
}
