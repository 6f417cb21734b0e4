<?php

declare(strict_types=1);

namespace CardGateway\Tests;

use CardGateway\ApiException;
use CardGateway\Client;
use PHPUnit\Framework\TestCase;

final class ClientTest extends TestCase
{
    private function client(?string $baseUrl = null, array $options = []): Client
    {
        return new Client($baseUrl ?? Support::env('GATEWAY_BASE_URL'), Support::env('GATEWAY_API_KEY'), $options + ['base_delay_ms' => 5, 'max_delay_ms' => 20]);
    }

    private function run_(callable $call): ApiException
    {
        try {
            $call();
        } catch (ApiException $e) {
            return $e;
        }
        self::fail('no ApiException was thrown');
    }

    public function testCreateWithTheSameIdempotencyKeyReturnsTheSamePayment(): void
    {
        $client = $this->client();
        $body = ['amount' => 1500000, 'currency' => 'IRR', 'callbackUrl' => Support::CALLBACK, 'orderId' => 'php-1', 'metadata' => ['customerId' => 42]];
        $first = $client->payments->create($body, ['idempotency_key' => 'php-order-1']);
        $again = $client->payments->create($body, ['idempotency_key' => 'php-order-1']);
        self::assertSame('pending', $first['status']);
        self::assertStringContainsString('/pay/' . $first['token'], $first['checkoutUrl']);
        self::assertSame($first, $again);
        self::assertNotSame($first['id'], $client->payments->create($body)['id']);
        $got = $client->payments->get($first['id']);
        self::assertEquals(['id' => $first['id'], 'orderId' => 'php-1', 'amountRequested' => '1500000'], array_intersect_key($got, ['id' => 1, 'orderId' => 1, 'amountRequested' => 1]));
    }

    public function testListAnswersOnePageAndIterateWalksEveryPage(): void
    {
        $client = $this->client();
        $made = [];
        for ($i = 0; $i < 5; $i++) {
            $made[] = $client->payments->create(['amount' => 20000 + $i * 1000, 'callbackUrl' => Support::CALLBACK, 'orderId' => 'php-many'])['id'];
        }
        $page = $client->payments->list(['orderId' => 'php-many', 'pageSize' => 2, 'reviewRequired' => false]);
        self::assertSame([1, 2, 5], [$page['page'], $page['pageSize'], $page['total']]);
        self::assertCount(2, $page['items']);
        $all = [];
        foreach ($client->payments->iterate(['orderId' => 'php-many', 'pageSize' => 2]) as $payment) {
            $all[] = $payment['id'];
        }
        self::assertSame(array_reverse($made), $all);
    }

    public function testVerifyRefusesAWrongAmountAndVerifiesTheRightOne(): void
    {
        $client = $this->client();
        $p = $client->payments->create(['amount' => 150000, 'currency' => 'IRT', 'callbackUrl' => Support::CALLBACK, 'orderId' => 'php-verify']);
        self::assertFalse($client->payments->verify($p['id'], 150000, 'IRT')['verified']);
        Support::confirm($p['id']);
        $e = $this->run_(function () use ($client, $p) {
            $client->payments->verify($p['id'], 150000);
        });
        self::assertSame(409, $e->getStatus());
        self::assertSame('amount_mismatch', $e->getErrorCode());
        self::assertSame(['amountRequested' => '1500000', 'given' => '150000'], $e->getDetails());
        self::assertNotSame('', $e->getMessage());
        $right = $client->payments->verify($p['id'], 150000, 'IRT');
        self::assertTrue($right['verified']);
        self::assertFalse($right['alreadyVerified']);
        self::assertSame('php-verify', $right['orderId']);
        self::assertTrue($client->payments->verify($p['id'], '1500000')['alreadyVerified']);
    }

    public function testRejectEndsAPendingPayment(): void
    {
        $client = $this->client();
        $p = $client->payments->create(['amount' => 30000, 'callbackUrl' => Support::CALLBACK]);
        self::assertSame('rejected', $client->payments->reject($p['id'], 'Out of stock')['status']);
        $e = $this->run_(function () use ($client, $p) {
            $client->payments->reject($p['id']);
        });
        self::assertSame([409, 'invalid_state', 'rejected'], [$e->getStatus(), $e->getErrorCode(), $e->getDetails()['status']]);
    }

    public function testARefundSentTwiceWithOneKeyIsRecordedOnce(): void
    {
        $client = $this->client();
        $p = $client->payments->create(['amount' => 400000, 'callbackUrl' => Support::CALLBACK]);
        Support::confirm($p['id']);
        $body = ['amount' => '100000', 'destinationCard' => '6037991234567893', 'reference' => 'TRX-1'];
        $first = $client->refunds->create($p['id'], $body, ['idempotency_key' => 'php-refund-1']);
        $again = $client->payments->refunds->create($p['id'], $body, ['idempotency_key' => 'php-refund-1']);
        self::assertSame($first, $again);
        self::assertSame('************7893', $first['destinationCard']);
        self::assertSame([$first['id']], array_column($client->refunds->list($p['id'])['items'], 'id'));
    }

    public function testErrorsCarryTheEnvelope(): void
    {
        $client = $this->client();
        $e = $this->run_(function () use ($client) {
            $client->payments->create(['amount' => 500, 'callbackUrl' => 'http://shop.example.com/return']);
        });
        self::assertSame(400, $e->getStatus());
        self::assertSame('invalid_request', $e->getErrorCode());
        $fields = array_column($e->getDetails()['fields'], 'field');
        sort($fields);
        self::assertSame(['amount', 'callbackUrl'], $fields);
        self::assertSame('invalid_request', $e->getBody()['error']['code']);
        self::assertSame(404, $this->run_(function () use ($client) {
            $client->payments->get('00000000-0000-4000-8000-000000000000');
        })->getStatus());
        $unknownKey = new Client(Support::env('GATEWAY_BASE_URL'), 'sk_test_nope');
        self::assertSame('unauthorized', $this->run_(function () use ($unknownKey) {
            $unknownKey->payments->list();
        })->getErrorCode());
    }

    public function testRetriesResendTheSameIdempotencyKeyAndMakeOnePayment(): void
    {
        Support::plan(['drop', 503, 'forward-then-503', 'proxy']);
        $created = $this->client(Support::env('GATEWAY_STANDIN_URL'))->payments->create(['amount' => 1234560, 'callbackUrl' => Support::CALLBACK, 'orderId' => 'php-retry']);
        $seen = Support::seen();
        self::assertCount(4, $seen);
        $keys = array_unique(array_column($seen, 'key'));
        self::assertCount(1, $keys);
        self::assertMatchesRegularExpression('/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/', $keys[0]);
        $page = $this->client()->payments->list(['orderId' => 'php-retry']);
        self::assertSame(1, $page['total']);
        self::assertSame($created['id'], $page['items'][0]['id']);
    }

    public function testA429IsRetriedAfterItsRetryAfter(): void
    {
        $client = $this->client();
        $p = $client->payments->create(['amount' => 250000, 'callbackUrl' => Support::CALLBACK]);
        Support::confirm($p['id']);
        Support::plan([429, 'forward-then-503', 'proxy']);
        $started = microtime(true);
        $refund = $this->client(Support::env('GATEWAY_STANDIN_URL'))->refunds->create($p['id'], ['amount' => '50000', 'destinationCard' => '6037991234567893'], ['idempotency_key' => 'php-refund-429']);
        self::assertGreaterThanOrEqual(1.0, microtime(true) - $started, 'Retry-After: 1 was waited out');
        self::assertSame(['php-refund-429', 'php-refund-429', 'php-refund-429'], array_column(Support::seen(), 'key'));
        self::assertSame([$refund['id']], array_column($client->refunds->list($p['id'])['items'], 'id'));
    }

    public function testIdempotencyConflictIsRetriedOnlyAfterAnUnansweredAttempt(): void
    {
        Support::plan(['drop', 409, 409, 'proxy']);
        $created = $this->client(Support::env('GATEWAY_STANDIN_URL'), ['max_retries' => 4, 'base_delay_ms' => 1])->payments->create(['amount' => 45000, 'callbackUrl' => Support::CALLBACK, 'orderId' => 'php-409']);
        self::assertCount(4, Support::seen());
        self::assertCount(1, array_unique(array_column(Support::seen(), 'key')));
        self::assertSame([$created['id']], array_column($this->client()->payments->list(['orderId' => 'php-409'])['items'], 'id'));
        Support::plan([409]);
        $e = $this->run_(function () {
            $this->client(Support::env('GATEWAY_STANDIN_URL'))->payments->create(['amount' => 45000, 'callbackUrl' => Support::CALLBACK]);
        });
        self::assertSame([409, 'idempotency_conflict'], [$e->getStatus(), $e->getErrorCode()]);
        self::assertCount(1, Support::seen());
    }

    public function testToleratesWhatV1MayAdd(): void
    {
        $p = $this->client()->payments->create(['amount' => 35000, 'callbackUrl' => Support::CALLBACK]);
        Support::plan(['extend']);
        $notices = [];
        $later = $this->client(Support::env('GATEWAY_STANDIN_URL'), ['on_deprecation' => function (array $notice) use (&$notices) {
            $notices[] = $notice;
        }])->payments->get($p['id']);
        self::assertSame([['route' => 'GET /payments/{id}', 'deprecation' => '@1796083200', 'sunset' => 'Wed, 01 Dec 2027 00:00:00 GMT', 'link' => null]], $notices);
        self::assertSame($p['id'], $later['id']);
        self::assertSame('on_hold', $later['status']);
        self::assertSame(['nested' => [1, 2]], $later['addedLater']);
    }

    public function testGivesUpAfterMaxRetriesAndNeverRetriesA4xx(): void
    {
        $client = $this->client(Support::env('GATEWAY_STANDIN_URL'), ['max_retries' => 2, 'base_delay_ms' => 1, 'max_delay_ms' => 2]);
        Support::plan([503, 503, 503]);
        $e = $this->run_(function () use ($client) {
            $client->payments->get('00000000-0000-4000-8000-000000000000');
        });
        self::assertSame([503, 'unavailable'], [$e->getStatus(), $e->getErrorCode()]);
        self::assertCount(3, Support::seen());
        Support::plan([]);
        self::assertSame(404, $this->run_(function () use ($client) {
            $client->payments->get('00000000-0000-4000-8000-000000000000');
        })->getStatus());
        self::assertCount(1, Support::seen());
        Support::plan(['drop', 'drop', 'drop']);
        $e = $this->run_(function () use ($client) {
            $client->payments->list();
        });
        self::assertSame([0, 'network_error'], [$e->getStatus(), $e->getErrorCode()]);
    }
}
