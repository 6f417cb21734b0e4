<?php
/*
 * A Laravel controller on the PHP SDK (sdk/php): `composer require cardgateway/sdk` (a path
 * repository, see sdk/php/README.md), then in routes/web.php:
 *
 *   Route::post('/orders/{order}/pay', [PaymentController::class, 'pay']);
 *   Route::get('/payment/return', [PaymentController::class, 'return'])->name('payment.return');
 *   Route::post('/hooks/gateway', [PaymentController::class, 'webhook']);   // exclude it from CSRF (VerifyCsrfToken::$except)
 *
 * and in config/services.php: 'cardgateway' => ['url' => env('GATEWAY_URL'), 'key' => env('GATEWAY_API_KEY'), 'webhook_secret' => env('GATEWAY_WEBHOOK_SECRET')].
 * The Order model has amount (in toman here), payment_id and paid_at. docs/integration.md has the flow.
 */

namespace App\Http\Controllers;

use App\Models\Order;
use CardGateway\ApiException;
use CardGateway\Client;
use CardGateway\SignatureException;
use CardGateway\Webhook;
use Illuminate\Http\Request;
use Illuminate\Support\Facades\DB;
use Illuminate\Support\Facades\Log;

class PaymentController extends Controller
{
    private function gateway(): Client
    {
        return new Client(config('services.cardgateway.url'), config('services.cardgateway.key'));
    }

    /** 1–2. Create the payment (idempotent per order) and send the payer to the checkout page. */
    public function pay(Order $order)
    {
        $payment = $this->gateway()->payments->create([
            'amount' => $order->amount,
            'currency' => 'IRT',
            'callbackUrl' => route('payment.return'),
            'orderId' => (string) $order->id,
        ], ['idempotency_key' => 'order-' . $order->id]);
        $order->update(['payment_id' => $payment['id']]);
        return redirect()->away($payment['checkoutUrl'], 303);
    }

    /** 4. The payer comes back: never trust service_status, verify. */
    public function return(Request $request)
    {
        $order = Order::where('id', $request->query('order_id'))->where('payment_id', $request->query('service_ref'))->first();
        $paid = $order !== null && $this->fulfilIfPaid($order);
        return view($paid ? 'orders.paid' : 'orders.pending', ['order' => $order]);
    }

    /** 6. The webhook: signature on the raw body first, then deduplicate and verify. */
    public function webhook(Request $request)
    {
        try {
            $event = Webhook::verify($request->getContent(), (string) $request->header('X-Service-Signature'), config('services.cardgateway.webhook_secret'));
        } catch (SignatureException $e) {
            return response('', 400);
        }
        // deliveries: a table with a unique delivery_id; a delivery may arrive twice.
        if (DB::table('gateway_deliveries')->insertOrIgnore(['delivery_id' => $event['deliveryId']]) === 0) {
            return response('', 200);
        }
        // Device events, event types added later, and sendTestWebhook's sample (order "test-order"):
        // no order of ours, acknowledged and ignored.
        if (strpos($event['event'], 'payment.') !== 0 || empty($event['paymentId'])) {
            return response('', 200);
        }
        $order = Order::where('id', $event['orderId'] ?? null)->where('payment_id', $event['paymentId'])->first();
        if ($order !== null) {
            $this->fulfilIfPaid($order);
        }
        return response('', 200);
    }

    /** 5. Verify with the stored amount; fulfil once. */
    private function fulfilIfPaid(Order $order): bool
    {
        try {
            $result = $this->gateway()->payments->verify($order->payment_id, $order->amount, 'IRT');
        } catch (ApiException $e) {
            if ($e->getErrorCode() === 'amount_mismatch') {
                Log::warning('payment amount mismatch', ['order' => $order->id, 'details' => $e->getDetails()]);
                return false;
            }
            throw $e;
        }
        if ($result['verified'] !== true || $result['orderId'] !== (string) $order->id) {
            return false;
        }
        DB::transaction(function () use ($order) {
            $locked = Order::lockForUpdate()->find($order->id);
            if ($locked->paid_at === null) {
                $locked->update(['paid_at' => now()]); // and ship it
            }
        });
        return true;
    }
}
