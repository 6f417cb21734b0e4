<?php
/*
 * A plain-PHP shop page on the PHP SDK (sdk/php, no Composer needed): create a payment and
 * redirect, the payer's return (callback), the webhook, verify, refund. PHP 7.4+ with ext-curl.
 *
 *   GATEWAY=https://pay.example.com API_KEY=sk_test_… WEBHOOK_SECRET=whsec_… SHOP_URL=https://shop.example.com \
 *     php -S 127.0.0.1:8080 callback.php
 *
 * (Behind Apache or nginx, split it into pages: buy.php, return.php, hooks.php.)
 * test/sdk/examples.test.ts runs it against a real service; docs/integration.md shows its parts.
 */
declare(strict_types=1);

require getenv('CARDGATEWAY_SDK') ?: __DIR__ . '/../../sdk/php/autoload.php';

use CardGateway\ApiException;
use CardGateway\Client;
use CardGateway\SignatureException;
use CardGateway\Webhook;

$client = new Client(getenv('GATEWAY'), getenv('API_KEY'));

// Your database: here a JSON file of orders, each with the amount and unit it was priced in and
// its payment's id, and the webhook deliveries already handled.
function with_store(callable $change)
{
    $file = getenv('ORDERS_FILE') ?: sys_get_temp_dir() . '/shop-orders.json';
    $handle = fopen($file, 'c+');
    flock($handle, LOCK_EX);
    $store = json_decode(stream_get_contents($handle) ?: '{"orders":{},"deliveries":{}}', true);
    $result = $change($store);
    ftruncate($handle, 0);
    rewind($handle);
    fwrite($handle, json_encode($store));
    flock($handle, LOCK_UN);
    fclose($handle);
    return $result;
}

// 1. Create the payment (the order id as the idempotency key: a retry never makes a second one),
// 2. then redirect the payer to checkoutUrl.
function start_payment(Client $client, string $orderId, int $amount, string $currency): string
{
    $payment = $client->payments->create(
        ['amount' => $amount, 'currency' => $currency, 'callbackUrl' => getenv('SHOP_URL') . '/return', 'orderId' => $orderId],
        ['idempotency_key' => 'order-' . $orderId]
    );
    with_store(function (array &$store) use ($orderId, $amount, $currency, $payment) {
        $store['orders'][$orderId] = ['amount' => $amount, 'currency' => $currency, 'paymentId' => $payment['id'], 'paid' => false];
    });
    return $payment['checkoutUrl']; // header('Location: ' . $url, true, 303)
}

// 5. Verify with the amount you stored; fulfil only when verified, and only once.
function fulfil_if_paid(Client $client, string $orderId, array $order): bool
{
    try {
        $result = $client->payments->verify($order['paymentId'], $order['amount'], $order['currency']);
    } catch (ApiException $e) {
        if ($e->getErrorCode() === 'amount_mismatch') {
            return false; // the payer paid for something else: never fulfil
        }
        throw $e;
    }
    if ($result['verified'] !== true || $result['orderId'] !== $orderId) {
        return false; // not confirmed (yet): wait for the webhook
    }
    with_store(function (array &$store) use ($orderId) {
        if (!$store['orders'][$orderId]['paid']) {
            $store['orders'][$orderId]['paid'] = true; // ship it here, under the same lock
        }
    });
    return true;
}

function find_order(string $orderId): ?array
{
    return with_store(function (array &$store) use ($orderId) {
        return $store['orders'][$orderId] ?? null;
    });
}

// 4. The payer's return: ?service_token=…&service_status=…&service_ref=…&order_id=…
// service_status is typed by whoever has the URL: only verify says whether it is paid.
function on_return(Client $client, array $query): bool
{
    $orderId = (string) ($query['order_id'] ?? '');
    $order = find_order($orderId);
    if ($order === null || $order['paymentId'] !== ($query['service_ref'] ?? null)) {
        return false;
    }
    return fulfil_if_paid($client, $orderId, $order);
}

// 6. The webhook: check the signature on the raw body, deduplicate, then verify.
function on_webhook(Client $client, string $rawBody, string $signature): int
{
    try {
        $event = Webhook::verify($rawBody, $signature, getenv('WEBHOOK_SECRET'));
    } catch (SignatureException $e) {
        return 400; // not ours, or stale: do nothing
    }
    $first = with_store(function (array &$store) use ($event) {
        $seen = isset($store['deliveries'][$event['deliveryId']]);
        $store['deliveries'][$event['deliveryId']] = true;
        return !$seen;
    });
    // Device events and event types added later: acknowledge and ignore.
    if (!$first || strpos($event['event'], 'payment.') !== 0 || empty($event['paymentId'])) {
        return 200;
    }
    // sendTestWebhook's sample (orderId "test-order", a payment that does not exist) is no order of
    // ours either: acknowledged here, never verified.
    $orderId = (string) ($event['orderId'] ?? '');
    $order = find_order($orderId);
    if ($order === null || $order['paymentId'] !== $event['paymentId']) {
        return 200;
    }
    fulfil_if_paid($client, $orderId, $order);
    return 200; // within 10 s, or the delivery is retried
}

// Refund: record the money you paid back from your bank (a new key per refund; a retry of it
// records it once).
function refund(Client $client, array $order, string $orderId, string $amountRials, string $card, string $reference): array
{
    $recorded = $client->refunds->create(
        $order['paymentId'],
        ['amount' => $amountRials, 'destinationCard' => $card, 'reference' => $reference],
        ['idempotency_key' => 'refund-' . $orderId . '-' . $reference]
    );
    $refunds = $client->refunds->list($order['paymentId'])['items'];
    return ['recorded' => $recorded, 'refunds' => count($refunds)];
}

// The HTTP side. Errors of the API reach the log with their code and details.
$path = parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH);
$method = $_SERVER['REQUEST_METHOD'] ?? 'GET';
try {
    if ($method === 'GET' && $path === '/buy') {
        header('Location: ' . start_payment($client, (string) $_GET['order'], (int) $_GET['amount'], 'IRT'), true, 303);
    } elseif ($method === 'GET' && $path === '/return') {
        header('Content-Type: text/plain');
        echo on_return($client, $_GET) ? 'paid' : 'not paid';
    } elseif ($method === 'POST' && $path === '/hooks/gateway') {
        http_response_code(on_webhook($client, (string) file_get_contents('php://input'), $_SERVER['HTTP_X_SERVICE_SIGNATURE'] ?? ''));
    } elseif ($method === 'POST' && $path === '/refund') {
        $order = find_order((string) ($_GET['order'] ?? ''));
        if ($order === null) {
            http_response_code(404);
        } else {
            http_response_code(201);
            header('Content-Type: application/json');
            echo json_encode(refund($client, $order, (string) $_GET['order'], (string) $_GET['amount'], (string) $_GET['card'], (string) $_GET['reference']));
        }
    } elseif ($method === 'GET' && strpos((string) $path, '/orders/') === 0) {
        $order = find_order(rawurldecode(substr((string) $path, strlen('/orders/'))));
        http_response_code($order === null ? 404 : 200);
        header('Content-Type: application/json');
        echo json_encode($order);
    } else {
        http_response_code(404);
    }
} catch (ApiException $e) {
    error_log(sprintf('gateway %d %s: %s %s', $e->getStatus(), $e->getErrorCode(), $e->getMessage(), json_encode($e->getDetails())));
    http_response_code(500);
}
