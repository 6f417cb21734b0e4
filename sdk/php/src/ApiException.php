<?php

declare(strict_types=1);

namespace CardGateway;

/**
 * An answer of the API that is not a success, with its error envelope intact. Branch on
 * getErrorCode() (stable: `invalid_request`, `amount_mismatch`, `not_found`, …), never on the
 * message. getStatus() is the HTTP status, 0 when no answer came at all after every retry
 * (error code `network_error`).
 */
class ApiException extends \RuntimeException
{
    /** @var int */
    private $status;
    /** @var string */
    private $errorCode;
    /** @var array<string, mixed> */
    private $details;
    /** @var mixed */
    private $body;
    /** @var int|null */
    private $retryAfter;
    /** @var string|null */
    private $idempotencyKey;

    /**
     * @param array<string, mixed> $details
     * @param mixed $body the decoded answer (the whole envelope), or its text when it was not JSON
     */
    public function __construct(int $status, string $errorCode, string $message, array $details = [], $body = null, ?int $retryAfter = null, ?string $idempotencyKey = null, ?\Throwable $previous = null)
    {
        parent::__construct($message, $status, $previous);
        $this->status = $status;
        $this->errorCode = $errorCode;
        $this->details = $details;
        $this->body = $body;
        $this->retryAfter = $retryAfter;
        $this->idempotencyKey = $idempotencyKey;
    }

    /** The HTTP status (0: no answer). */
    public function getStatus(): int
    {
        return $this->status;
    }

    /** The envelope's `error.code`. */
    public function getErrorCode(): string
    {
        return $this->errorCode;
    }

    /**
     * The envelope's `error.details`: e.g. `fields` of invalid_request, `amountRequested` and
     * `given` of amount_mismatch, `reasons` of no_card_available.
     *
     * @return array<string, mixed>
     */
    public function getDetails(): array
    {
        return $this->details;
    }

    /** @return mixed the decoded answer as the service sent it */
    public function getBody()
    {
        return $this->body;
    }

    /** `Retry-After` in seconds, when the answer had one. */
    public function getRetryAfter(): ?int
    {
        return $this->retryAfter;
    }

    /** The Idempotency-Key the request was sent (and resent) with, if any. */
    public function getIdempotencyKey(): ?string
    {
        return $this->idempotencyKey;
    }
}
