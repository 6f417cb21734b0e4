<?php

declare(strict_types=1);

namespace CardGateway\Tests;

/** Plain curl calls the tests make beside the SDK (sandbox deposits, the stand-in's controls). */
final class Support
{
    public const CALLBACK = 'https://shop.example.com/return';

    public static function env(string $name): string
    {
        $value = getenv($name);
        if ($value === false || $value === '') {
            throw new \RuntimeException("$name is not set");
        }
        return $value;
    }

    /** @return array{0:int,1:mixed} */
    public static function http(string $method, string $url, ?array $body = null, array $headers = []): array
    {
        $ch = curl_init($url);
        curl_setopt_array($ch, [CURLOPT_CUSTOMREQUEST => $method, CURLOPT_RETURNTRANSFER => true, CURLOPT_HTTPHEADER => array_merge(['Content-Type: application/json'], $headers)]);
        if ($body !== null) {
            curl_setopt($ch, CURLOPT_POSTFIELDS, json_encode($body));
        }
        $text = (string) curl_exec($ch);
        $status = (int) curl_getinfo($ch, CURLINFO_RESPONSE_CODE);
        curl_close($ch);
        return [$status, json_decode($text, true)];
    }

    /** Confirms a sandbox payment as a matching deposit would. */
    public static function confirm(string $paymentId): void
    {
        [$status, $answer] = self::http('POST', self::env('GATEWAY_BASE_URL') . '/v1/sandbox/deposits', ['paymentId' => $paymentId, 'outcome' => 'match'], ['Authorization: Bearer ' . self::env('GATEWAY_API_KEY')]);
        if ($status !== 200 || $answer['payment']['status'] !== 'confirmed') {
            throw new \RuntimeException('the sandbox deposit did not confirm ' . $paymentId . ': ' . json_encode($answer));
        }
    }

    /** @param list<string|int> $plan */
    public static function plan(array $plan): void
    {
        [$status] = self::http('PUT', self::env('GATEWAY_STANDIN_URL') . '/__stand-in/plan', $plan);
        if ($status !== 204) {
            throw new \RuntimeException('the stand-in refused the plan');
        }
    }

    /** @return list<array{method:string,path:string,key:?string}> */
    public static function seen(): array
    {
        return self::http('GET', self::env('GATEWAY_STANDIN_URL') . '/__stand-in/seen')[1];
    }
}
