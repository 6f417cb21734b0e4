import { z } from 'zod';
import { parseInput } from '../validation.js';
import { capcomTelemetry } from './telemetry.js';

/**
 * The webhook bodies of Android SMS forwarder apps, normalised to our own `{sender, body,
 * receivedAt}` so a merchant needs no custom app. Each schema names the source file it was read
 * from; docs/forwarders.md has the set-up per app. Our own shape (or anything no app claims) is
 * passed through untouched, so its validation errors name our fields.
 */
export type ForwardedSms = { sender: string; body: string; receivedAt: string };
export type ForwarderApp = 'gateway' | 'sms-forwarder' | 'incoming-sms-gateway' | 'sms-gateway-android';
/** Telemetry fields as an app's template or ping carried them, read by telemetry.ts `looseTelemetry`. */
export type RawTelemetry = Record<string, unknown>;
export type Forwarded =
  | { kind: 'single'; app: ForwarderApp; message: unknown; telemetry?: RawTelemetry }
  | { kind: 'batch'; app: ForwarderApp; messages: ForwardedSms[] }
  | { kind: 'ping'; app: ForwarderApp; telemetry?: RawTelemetry }
  | { kind: 'other_event'; app: ForwarderApp; event: string };

// Epoch numbers: 13 digits are milliseconds (Java's currentTimeMillis), 10 are seconds.
const MS_EPOCH_MIN = 1e12;
const S_EPOCH_MIN = 1e9;
// The last instant an RFC 3339 date-time (four-digit year) can name; Date's own range ends later.
const LAST_INSTANT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
// A number as JSON or a form field carries it, NaN and the infinities included. Each digit run has
// one way to match, so a long run of digits costs linear time.
const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$|^[+-]?(nan|infinity)$/i;
// A date-time without an offset is local time on a phone we cannot see; only explicit offsets count.
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A numeric stamp (number or numeric text) as epoch ms, numbers below MS_EPOCH_MIN read as seconds;
 * NaN when it is a number but no instant from 1970 to 9999; undefined when it is no number at all.
 */
function epochMs(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && NUMERIC.test(value.trim()) ? Number(value.trim()) : undefined;
  if (n === undefined) return undefined;
  const ms = n >= MS_EPOCH_MIN ? n : n * 1000;
  return Number.isFinite(ms) && ms >= 0 && ms <= LAST_INSTANT_MS ? ms : NaN;
}

/** An instant from an epoch (ms or s, number or digits) or a date-time with an offset; else undefined. Never throws. */
export function instantOf(value: unknown): string | undefined {
  const ms = epochMs(value);
  // Below S_EPOCH_MIN seconds (2001) is a phone clock never set: no instant to go by.
  if (ms !== undefined) return ms >= S_EPOCH_MIN * 1000 ? new Date(ms).toISOString() : undefined;
  if (typeof value !== 'string' || !WITH_OFFSET.test(value.trim())) return undefined;
  const t = Date.parse(value.trim().replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isFinite(t) && t >= 0 && t <= LAST_INSTANT_MS ? new Date(t).toISOString() : undefined;
}

// An app's epoch field: a number that is no instant is the app's broken field (400 naming it), not
// a time to guess; text that is no number is left to instantOf (a template may put anything there).
const EPOCH_MESSAGE = 'must be an epoch time in milliseconds or seconds, from 1970 to 9999';
const stamp = z
  .union([z.number(), z.string()], { error: EPOCH_MESSAGE })
  .optional()
  .refine((v) => !Number.isNaN(epochMs(v)), EPOCH_MESSAGE);
const text = (name: string) => z.string({ message: `must be a string: the SMS ${name}` });

// pppscn/SmsForwarder app/src/main/java/com/idormy/sms/forwarder/utils/sender/WebhookUtils.kt:
// POST form `from=[from]&content=[content]&timestamp=[timestamp]` (+ `sign`) by default, or the
// user's `webParams` template as JSON/form; `[timestamp]` is the send time in ms, `[org_content]`
// the bare SMS, `[receive_time:<SimpleDateFormat>]` the receive time in the phone's zone.
const smsForwarder = z.object({
  from: text('sender'),
  content: z.string().optional(),
  org_content: z.string().optional(),
  receive_time: z.string().optional(),
  timestamp: stamp,
});

// Its default `content` is a template (MsgInfo.kt getContentForSend): from, SMS, SIM, "SubId：n",
// receive time, device name. Only that exact layout is cut back to the SMS lines.
const SUB_ID_LINE = /^SubId[：:]\s*-?\d+$/;
const LOCAL_TIME_LINE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
export function stripSmsForwarderTemplate(from: string, content: string): string {
  const lines = content.split('\n');
  const subId = lines.findIndex((l, i) => i >= 3 && SUB_ID_LINE.test(l.trim()));
  if (lines[0]?.trim() !== from.trim() || subId < 0 || !LOCAL_TIME_LINE.test(lines[subId + 1]?.trim() ?? '')) return content;
  return lines.slice(1, subId - 1).join('\n');
}

// bogkonstantin/android_income_sms_gateway_webhook ForwardingConfig.java getDefaultJsonTemplate
// and Request.java: JSON (application/json; charset=utf-8) `{from, text, sentStamp, receivedStamp,
// sim}`, stamps as bare ms numbers (older README samples quote them as strings).
const incomingSmsGateway = z.object({ from: text('sender'), text: text('text'), sentStamp: stamp, receivedStamp: stamp, sim: z.unknown().optional() });

// capcom6/android-sms-gateway modules/webhooks/domain/WebHookEventDTO.kt, payload/SmsEventPayload.kt,
// payload/SmsBatchReceivedPayload.kt, extensions/GsonBuilder.kt (dates `yyyy-MM-dd'T'HH:mm:ss.SSSXXX`):
// `{id, webhookId, event, deviceId, payload}`; `sms:received` payload `{messageId, message,
// phoneNumber, simNumber, receivedAt}`, `sms:batch:received` payload `{messages: [...]}`.
const capcomSms = z.object({ messageId: z.string().optional(), message: text('text'), phoneNumber: text('sender'), receivedAt: z.string().optional() });
const capcomEvent = z.object({ event: z.string(), deviceId: z.string().optional(), payload: z.unknown() });

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The telemetry fields a template added beside the SMS (docs/forwarders.md "Phone health"), when it added any. */
function templateTelemetry(input: Record<string, unknown>): RawTelemetry | undefined {
  const fields = Object.fromEntries(TELEMETRY_FIELDS.filter((k) => k in input).map((k) => [k, input[k]]));
  return Object.keys(fields).length > 0 ? fields : undefined;
}
const TELEMETRY_FIELDS = ['battery', 'charging', 'network', 'appVersion'] as const;
const has = (o: Record<string, unknown>, ...keys: string[]) => keys.every((k) => k in o);

/** Validates with the app's own field names; the bodies' text is checked later by our own schema. */
function check<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  return result.success ? result.data : parseInput(schema, input);
}

const capcomToSms = (m: z.output<typeof capcomSms>, now: Date): ForwardedSms => ({ sender: m.phoneNumber, body: m.message, receivedAt: instantOf(m.receivedAt) ?? now.toISOString() });

function fromCapcom(input: unknown, now: Date): Forwarded {
  const app = 'sms-gateway-android';
  // The whole event is checked with its payload's schema, so an error names `payload.message`.
  const { event } = check(capcomEvent, input);
  if (event === 'sms:received') return { kind: 'single', app, message: capcomToSms(check(capcomEvent.extend({ payload: capcomSms }), input).payload, now) };
  if (event === 'sms:batch:received') {
    const { payload } = check(capcomEvent.extend({ payload: z.object({ messages: z.array(capcomSms) }) }), input);
    return { kind: 'batch', app, messages: payload.messages.map((m) => capcomToSms(m, now)) };
  }
  if (event !== 'system:ping') return { kind: 'other_event', app, event };
  const telemetry = capcomTelemetry((input as { payload: unknown }).payload);
  return Object.values(telemetry).some((v) => v !== undefined) ? { kind: 'ping', app, telemetry } : { kind: 'ping', app };
}

/**
 * Which app sent `input` and the SMS in it. `now` stands in for a receive time the app did not
 * send (or sent without a time zone): the duplicate rule then cannot see a resend, but the bank
 * reference check still can.
 */
export function normaliseForwarderBody(input: unknown, now = new Date()): Forwarded {
  if (!isRecord(input) || 'sender' in input) return { kind: 'single', app: 'gateway', message: input };
  if (has(input, 'event', 'payload')) return fromCapcom(input, now);
  if (has(input, 'from', 'text')) {
    const m = check(incomingSmsGateway, input);
    const receivedAt = instantOf(m.receivedStamp) ?? instantOf(m.sentStamp) ?? now.toISOString();
    return { kind: 'single', app: 'incoming-sms-gateway', message: { sender: m.from, body: m.text, receivedAt } };
  }
  if ('from' in input && ('content' in input || 'org_content' in input)) {
    const m = check(smsForwarder, input);
    const body = m.org_content || stripSmsForwarderTemplate(m.from, m.content ?? '');
    const receivedAt = instantOf(m.receive_time) ?? instantOf(m.timestamp) ?? now.toISOString();
    return { kind: 'single', app: 'sms-forwarder', message: { sender: m.from, body, receivedAt }, telemetry: templateTelemetry(input) };
  }
  return { kind: 'single', app: 'gateway', message: input };
}

/** The apps' bodies as documented in the OpenAPI document (the capcom6 event with its SMS payload). */
export const forwarderBodySchemas = {
  smsForwarder,
  incomingSmsGateway,
  smsGatewayAndroid: capcomEvent.extend({ id: z.string().optional(), webhookId: z.string().optional(), payload: capcomSms }),
};
