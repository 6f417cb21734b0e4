<?php

declare(strict_types=1);

namespace CardGateway;

/**
 * The HTTP layer (curl): one place that sends, retries and turns error envelopes into
 * ApiException. Network errors, 429 and 5xx are retried with the same Idempotency-Key (so a
 * retried create, verify, reject or refund takes effect once), after `Retry-After` when the answer
 * has one, else after an exponential backoff with full jitter. A 503 `no_card_available` is not
 * retried (cards free up in minutes: tell the payer at once). A 409 `idempotency_conflict` right
 * after an attempt that got no answer is retried: that attempt may still be running.
 */
final class HttpTransport
{
    /** @var string */
    private $base;
    /** @var string */
    private $apiKey;
    /** @var int */
    private $maxRetries;
    /** @var int */
    private $baseDelayMs;
    /** @var int */
    private $maxDelayMs;
    /** @var int */
    private $maxRetryAfterSeconds;
    /** @var int */
    private $timeoutSeconds;
    /** @var int */
    private $connectTimeoutSeconds;
    /** @var callable */
    private $onDeprecation;
    /** @var array<string, true> routes already warned about (the default handler) */
    private static $warned = [];

    /** @param array<string, mixed> $options see Client::__construct */
    public function __construct(string $baseUrl, string $apiKey, array $options = [])
    {
        if ($baseUrl === '' || $apiKey === '') {
            throw new \InvalidArgumentException('CardGateway\\Client needs the base URL and an API key');
        }
        $base = rtrim($baseUrl, '/');
        if (substr($base, -3) === '/v1') {
            $base = substr($base, 0, -3);
        }
        $this->base = $base . '/v1';
        $this->apiKey = $apiKey;
        $this->maxRetries = (int) ($options['max_retries'] ?? 3);
        $this->baseDelayMs = (int) ($options['base_delay_ms'] ?? 500);
        $this->maxDelayMs = (int) ($options['max_delay_ms'] ?? 10000);
        $this->maxRetryAfterSeconds = (int) ($options['max_retry_after'] ?? 60);
        $this->timeoutSeconds = (int) ($options['timeout'] ?? 30);
        $this->connectTimeoutSeconds = (int) ($options['connect_timeout'] ?? 10);
        $this->onDeprecation = $options['on_deprecation'] ?? [self::class, 'warnOnce'];
    }

    /**
     * The default deprecation handler: one E_USER_DEPRECATED per route and process (your error
     * log shows it when error_reporting includes E_USER_DEPRECATED).
     *
     * @param array{route:string,deprecation:string,sunset:?string,link:?string} $notice
     */
    public static function warnOnce(array $notice): void
    {
        if (isset(self::$warned[$notice['route']])) {
            return;
        }
        self::$warned[$notice['route']] = true;
        trigger_error(sprintf('CardGateway: %s is deprecated (%s)%s%s', $notice['route'], $notice['deprecation'], $notice['sunset'] !== null ? ', sunset ' . $notice['sunset'] : '', $notice['link'] !== null ? ': ' . $notice['link'] : ''), E_USER_DEPRECATED);
    }

    /** A fresh Idempotency-Key (a random UUID). */
    public static function newKey(): string
    {
        $b = random_bytes(16);
        $b[6] = chr((ord($b[6]) & 0x0f) | 0x40);
        $b[8] = chr((ord($b[8]) & 0x3f) | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($b), 4));
    }

    /**
     * @param array<string, mixed>|null $query
     * @param array<string, mixed>|null $body
     * @return array<string, mixed>
     */
    public function send(string $method, string $path, ?array $query = null, ?array $body = null, ?string $idempotencyKey = null): array
    {
        $url = $this->base . $path;
        if ($query) {
            $pairs = [];
            foreach ($query as $name => $value) {
                if ($value === null) {
                    continue;
                }
                if (is_bool($value)) {
                    $value = $value ? 'true' : 'false';
                }
                $pairs[] = rawurlencode((string) $name) . '=' . rawurlencode((string) $value);
            }
            if ($pairs) {
                $url .= '?' . implode('&', $pairs);
            }
        }
        $headers = ['Authorization: Bearer ' . $this->apiKey, 'Accept: application/json', 'Expect:'];
        $payload = null;
        if ($body !== null) {
            $payload = json_encode($body === [] ? new \stdClass() : $body, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
            if ($payload === false) {
                throw new \InvalidArgumentException('The request body cannot be encoded as JSON: ' . json_last_error_msg());
            }
            $headers[] = 'Content-Type: application/json';
        }
        if ($idempotencyKey !== null) {
            $headers[] = 'Idempotency-Key: ' . $idempotencyKey;
        }

        $lastUnanswered = false;
        for ($attempt = 0; ; $attempt++) {
            $canRetry = $attempt < $this->maxRetries;
            $retryAfter = null;
            $notice = [];
            $ch = curl_init($url);
            curl_setopt_array($ch, [
                CURLOPT_CUSTOMREQUEST => $method,
                CURLOPT_RETURNTRANSFER => true,
                CURLOPT_HTTPHEADER => $headers,
                CURLOPT_TIMEOUT => $this->timeoutSeconds,
                CURLOPT_CONNECTTIMEOUT => $this->connectTimeoutSeconds,
                CURLOPT_FOLLOWLOCATION => false,
                CURLOPT_USERAGENT => 'cardgateway-sdk-php/' . Client::VERSION,
                CURLOPT_HEADERFUNCTION => static function ($ch, string $line) use (&$retryAfter, &$notice): int {
                    $colon = strpos($line, ':');
                    if ($colon !== false) {
                        $name = strtolower(trim(substr($line, 0, $colon)));
                        $value = trim(substr($line, $colon + 1));
                        if ($name === 'retry-after') {
                            $retryAfter = $value;
                        } elseif ($name === 'deprecation' || $name === 'sunset' || $name === 'link') {
                            $notice[$name] = $value;
                        }
                    }
                    return strlen($line);
                },
            ]);
            if ($payload !== null) {
                curl_setopt($ch, CURLOPT_POSTFIELDS, $payload);
            }
            $text = curl_exec($ch);
            $errno = curl_errno($ch);
            $error = curl_error($ch);
            $status = (int) curl_getinfo($ch, CURLINFO_RESPONSE_CODE);
            curl_close($ch);

            if ($errno !== 0 || $text === false) {
                if (!$canRetry) {
                    throw new ApiException(0, 'network_error', 'No answer from ' . $this->base . ' after ' . ($attempt + 1) . ' attempt(s): ' . $error, [], null, null, $idempotencyKey);
                }
                $lastUnanswered = true;
                $this->sleepMs($this->backoffMs($attempt));
                continue;
            }

            if (isset($notice['deprecation'])) {
                // A deprecated route still answers as usual: say so, never fail the call (docs/versioning.md).
                call_user_func($this->onDeprecation, [
                    'route' => $method . ' ' . preg_replace('#^/payments/[^/]+#', '/payments/{id}', $path),
                    'deprecation' => $notice['deprecation'],
                    'sunset' => $notice['sunset'] ?? null,
                    'link' => $notice['link'] ?? null,
                ]);
            }
            $decoded = $text === '' ? null : json_decode((string) $text, true);
            if ($status >= 200 && $status < 300) {
                return is_array($decoded) ? $decoded : [];
            }

            $envelope = is_array($decoded) && isset($decoded['error']) && is_array($decoded['error']) ? $decoded['error'] : [];
            $code = isset($envelope['code']) && is_string($envelope['code']) ? $envelope['code'] : 'http_' . $status;
            $waitSeconds = self::retryAfterSeconds($retryAfter);
            $exception = new ApiException(
                $status,
                $code,
                isset($envelope['message']) && is_string($envelope['message']) ? $envelope['message'] : 'HTTP ' . $status,
                isset($envelope['details']) && is_array($envelope['details']) ? $envelope['details'] : [],
                $decoded ?? $text,
                $waitSeconds,
                $idempotencyKey
            );
            $transient = $status === 429
                || ($status >= 500 && $code !== 'no_card_available')
                || ($status === 409 && $code === 'idempotency_conflict' && $lastUnanswered);
            if (!$canRetry || !$transient || ($waitSeconds !== null && $waitSeconds > $this->maxRetryAfterSeconds)) {
                throw $exception;
            }
            if ($status !== 409) {
                $lastUnanswered = false; // still unanswered while the service says the first attempt is running
            }
            $this->sleepMs(max(($waitSeconds ?? 0) * 1000, $this->backoffMs($attempt)));
        }
    }

    private static function retryAfterSeconds(?string $header): ?int
    {
        if ($header === null || $header === '') {
            return null;
        }
        if (ctype_digit($header)) {
            return (int) $header;
        }
        $at = strtotime($header);
        return $at === false ? null : max(0, $at - time());
    }

    /** Full jitter: a random delay up to base × 2^attempt, capped. */
    private function backoffMs(int $attempt): int
    {
        $ceiling = (int) min($this->maxDelayMs, $this->baseDelayMs * (2 ** $attempt));
        return $ceiling > 0 ? random_int(0, $ceiling) : 0;
    }

    private function sleepMs(int $ms): void
    {
        if ($ms > 0) {
            usleep($ms * 1000);
        }
    }
}
