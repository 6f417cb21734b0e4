import { buildParsed, fieldsOf, findField, hintOf, leadingAmount, namesABank } from '../fields.js';
import { findBankTime } from '../jalali.js';
import { leadingAccount, orMovement } from '../movement.js';
import type { Direction, SmsParser } from '../types.js';

const BANK_NAME = /پارسیان/;
const TO = /به\s*(?:کارت|حساب)\s*([\d*.\-]+)/;
const FROM = /از\s*(?:کارت|حساب)\s*([\d*.\-]+)/;
// Parsian writes the year with a leading zero (`0404/07/15_14:02`); no other bank does.
const PARSIAN_DATE = /^0\d{3}\/\d{1,2}\/\d{1,2}[ _]/m;

/**
 * `مبلغ:+850,000` / `مانده:9,100,000` / `بابت :انتقال از کارت 6219****3264 به کارت 6221****3057 با شماره پیگیری 248125` /
 * `0403/07/15_14:02`, or `برداشت از:…` / `مبلغ: … ریال` / `زمان: …` under `*پارسیان بانک ایرانیان*`
 * (beigirad/AutoOTP OtpCaseFactory.kt). The compact layout drops the `بابت` line
 * (`مبلغ:+850,000` / `مانده:…` / `0404/07/15_14:02`): its signed `مبلغ` and zero-led year identify it. The newer
 * compact layout opens with the account alone and puts date and time on lines of their own: `30101883751600` /
 * `مبلغ:1,950,000+` / `مانده:40,913,550` / `05/14` / `10:30`, sometimes followed by the `بابت` line, from sender
 * `PARSIANBANK` (real messages quoted in public TypeScript and Kotlin parser tests; the numeric senders were read off
 * real phones in doxigo/muchToman Sms.kt, its Bank enum).
 */
export const parsian: SmsParser = {
  bankCode: 'parsian',
  // `PARSIANBANK`, in capitals, is the header of the real compact messages above (and doxigo/muchToman's Bank enum).
  senders: ['ParsianBank', 'PARSIANBANK', 'Parsian', '+98300054', '+98300055', '+9850001099'],
  senderName: /parsian|persianbank/,
  mark: BANK_NAME,
  parse(body, receivedAt, context) {
    const fields = fieldsOf(body);
    const sum = findField(fields, /^مبلغ$/);
    const purpose = findField(fields, /^بابت$/);
    const depositTo = findField(fields, /^واریز به$/);
    const withdrawnFrom = findField(fields, /^(?:برداشت از|خرید از)$/);
    const sumAmount = sum ? leadingAmount(sum.value) : null;
    const account = leadingAccount(body) ?? undefined;
    const compact = sumAmount?.sign != null && (PARSIAN_DATE.test(body) || (account !== undefined && fields[1] === sum));
    const shaped = sum !== undefined && (purpose !== undefined || depositTo !== undefined || withdrawnFrom !== undefined || compact);
    if (!BANK_NAME.test(body) && (!shaped || namesABank(body)) && context?.viaSender !== true) return null;
    const signals = orMovement({
      body,
      amount: sum ? leadingAmount(sum.value) : null,
      deposit: depositTo !== undefined,
      withdrawal: withdrawnFrom !== undefined,
    });
    const to = TO.exec(body)?.[1] ?? depositTo?.value;
    const from = FROM.exec(body)?.[1] ?? withdrawnFrom?.value;
    const hint = (direction: Direction) => hintOf(direction === 'deposit' ? (to ?? account) : (from ?? account ?? to));
    return buildParsed('parsian', signals, hint, findBankTime(body, { receivedAt }));
  },
};
