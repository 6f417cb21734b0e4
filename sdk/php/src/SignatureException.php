<?php

declare(strict_types=1);

namespace CardGateway;

/**
 * A webhook delivery that is not provably ours and fresh: answer it 400 and do nothing else.
 * getReason(): missing_header, malformed_header, timestamp_out_of_tolerance, signature_mismatch
 * or invalid_body.
 */
class SignatureException extends \RuntimeException
{
    /** @var string */
    private $reason;

    public function __construct(string $reason, string $message)
    {
        parent::__construct($message);
        $this->reason = $reason;
    }

    public function getReason(): string
    {
        return $this->reason;
    }
}
