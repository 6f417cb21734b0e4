import { Data } from './data.js';

/**
 * Each supported forwarder app's set-up steps, in Persian, for the hook URL just shown
 * (docs/forwarders.md has the same steps with every field).
 */
export function ForwarderSetupSteps({ hookUrl }: { hookUrl: string }) {
  return (
    <div className="forwarder-setup" id="forwarder-setup">
      <h3>راه‌اندازی برنامهٔ فرستنده روی گوشی</h3>
      <details open>
        <summary>SmsForwarder</summary>
        <ol className="steps">
          <li>«فرستنده‌ها» ← افزودن ← Webhook؛ روش POST و نشانی را همین نشانی هوک بگذارید (با اسکن کد یا کپی).</li>
          <li>
            در «پارامترها» این قالب را بگذارید: <Data>{'{"from":"[from]","content":"[org_content]","timestamp":"[timestamp]"}'}</Data>
          </li>
          <li>«قانون‌ها» ← پیامک ← افزودن: فرستندهٔ بانک را انتخاب کنید و همین فرستنده را برایش بگذارید.</li>
          <li>
            برای ضربان و وضعیت باتری، یک کار زمان‌بندی‌شده (هر ۱ تا ۴ دقیقه) با نشانی <Data>{`${hookUrl}/heartbeat`}</Data> بسازید و در بدنه‌اش{' '}
            <Data>{'{"battery":"[battery_pct]","charging":"[battery_status]","network":"[net_type]","appVersion":"[app_version]"}'}</Data> را بگذارید.
          </li>
        </ol>
      </details>
      <details>
        <summary>Incoming SMS to URL forwarder</summary>
        <ol className="steps">
          <li>«+» را بزنید؛ فرستنده را خط بانک (یا * برای همه) و نشانی را همین نشانی هوک بگذارید.</li>
          <li>قالب JSON پیش‌فرض را دست نزنید و تلاش دوباره را روشن نگه دارید.</li>
          <li>
            در تنظیمات، ضربان (heartbeat) را با نشانی <Data>{`${hookUrl}/heartbeat`}</Data> هر ۱ تا ۴ دقیقه روشن کنید.
          </li>
        </ol>
      </details>
      <details>
        <summary>SMS Gateway for Android</summary>
        <ol className="steps">
          <li>این برنامه سرآیند نمی‌فرستد؛ فقط نشانی هوک را به کار ببرید (فقط https).</li>
          <li>با نام کاربری و گذرواژهٔ صفحهٔ اصلی برنامه، وب‌هوک رویداد sms:received را به همین نشانی ثبت کنید.</li>
          <li>همین نشانی را برای رویداد system:ping هم ثبت کنید و Ping را در تنظیمات روشن کنید: باتری و شارژ هم با آن می‌رسد.</li>
        </ol>
      </details>
      <h3>زنده نگه داشتن برنامه</h3>
      <ul>
        <li>بهینه‌سازی باتری را برای برنامه خاموش کنید (بدون محدودیت).</li>
        <li>اجرای خودکار (Auto-start) را برای برنامه روشن کنید.</li>
        <li>در گوشی دوسیم‌کارته، سیم‌کارتی را انتخاب کنید که بانک به آن پیامک می‌دهد.</li>
        <li>RCS (چت) را برای خط بانک خاموش کنید تا پیامک‌ها به شکل پیامک برسند.</li>
        <li>گوشی را به شارژر وصل نگه دارید.</li>
      </ul>
    </div>
  );
}
