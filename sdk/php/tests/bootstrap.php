<?php
/*
 * The SDK's tests run against a real service. The root suite (test/sdk/php.test.ts) starts one,
 * makes a sandbox project and runs phpunit with:
 *   GATEWAY_BASE_URL       the service
 *   GATEWAY_API_KEY        a sandbox project key (sk_test_…)
 *   GATEWAY_STANDIN_URL    a stand-in in front of the service that fails requests as told (retries)
 *   GATEWAY_WEBHOOK_SECRET, GATEWAY_WEBHOOK_HEADER, GATEWAY_WEBHOOK_BODY_FILE: a real delivery
 */
declare(strict_types=1);

require __DIR__ . '/../autoload.php';
require __DIR__ . '/Support.php';

foreach (['GATEWAY_BASE_URL', 'GATEWAY_API_KEY'] as $name) {
    if (getenv($name) === false || getenv($name) === '') {
        fwrite(STDERR, "$name is not set: these tests run against a service (see tests/bootstrap.php)\n");
        exit(2);
    }
}
