<?php

declare(strict_types=1);

namespace CardGateway;

final class Webhook
{
    /**
     * Checks a webhook delivery and returns its decoded body.
     *
     * $rawBody is the request body exactly as received (`file_get_contents('php://input')`), never
     * re-encoded JSON. $signatureHeader is `X-Service-Signature` (`$_SERVER['HTTP_X_SERVICE_SIGNATURE']`):
     * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.rawBody">`, with a second `v1` for 24 h after a
     * secret rotation (either may match). The timestamp and the signature are checked before the
     * body is decoded; signatures are compared with hash_equals (constant time).
     *
     * @return array<string, mixed> the event: `event`, `deliveryId`, `sentAt` and the event's fields
     * @throws SignatureException
     */
    public static function verify(string $rawBody, string $signatureHeader, string $secret, int $toleranceSeconds = 300, ?int $now = null): array
    {
        if ($signatureHeader === '') {
            throw new SignatureException('missing_header', 'The X-Service-Signature header is missing.');
        }
        if ($secret === '') {
            throw new \InvalidArgumentException('Webhook::verify needs the endpoint\'s signing secret');
        }
        $timestamp = null;
        $signatures = [];
        foreach (explode(',', $signatureHeader) as $part) {
            $kv = explode('=', trim($part), 2);
            if (count($kv) !== 2) {
                continue;
            }
            if ($kv[0] === 't') {
                $timestamp = $kv[1];
            } elseif ($kv[0] === 'v1' && preg_match('/^[0-9a-f]{64}$/', $kv[1]) === 1) {
                // Other schemes (a future v2) are skipped, not refused.
                $signatures[] = $kv[1];
            }
        }
        if ($timestamp === null || preg_match('/^\d{1,12}$/', $timestamp) !== 1 || $signatures === []) {
            throw new SignatureException('malformed_header', 'The X-Service-Signature header has no timestamp or no v1 signature.');
        }
        $now = $now ?? time();
        if (abs($now - (int) $timestamp) > $toleranceSeconds) {
            throw new SignatureException('timestamp_out_of_tolerance', "The signature's timestamp is more than {$toleranceSeconds} s from now.");
        }
        $expected = hash_hmac('sha256', $timestamp . '.' . $rawBody, $secret);
        $matched = false;
        foreach ($signatures as $signature) {
            // Every candidate is compared (no early exit), each in constant time.
            if (hash_equals($expected, $signature)) {
                $matched = true;
            }
        }
        if (!$matched) {
            throw new SignatureException('signature_mismatch', 'No signature in the header matches the body and the secret.');
        }
        $event = json_decode($rawBody, true);
        if (!is_array($event) || !isset($event['event']) || !is_string($event['event'])) {
            throw new SignatureException('invalid_body', 'The signed body is not a webhook event.');
        }
        return $event;
    }
}
