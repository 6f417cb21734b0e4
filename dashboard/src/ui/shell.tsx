import type { ReactNode } from 'react';
import { useAttention } from '../attention.js';
import { faDigits, faNumber } from '../format.js';
import { useLiveConnected } from '../live.js';
import { BASE, Link, navigate, useLocation } from '../router.js';
import { RoleContext } from '../role.js';
import { logout } from '../session.js';
import { useReportTwoFactor, useTwoFactorGate } from '../two-factor.js';
import { useUnit } from '../unit.js';

const NAV: [path: string, text: string][] = [
  ['/', 'نمای کلی'],
  ['/payments', 'پرداخت‌ها'],
  ['/review', 'صف بررسی'],
  ['/devices', 'گوشی‌ها'],
  ['/cards', 'کارت‌ها'],
  ['/webhooks', 'وب‌هوک‌ها'],
  ['/links', 'پیوندهای پرداخت'],
  ['/projects', 'پروژه‌ها و کلیدها'],
  ['/credit', 'اعتبار و کارمزد'],
  ['/users', 'کاربران'],
  ['/security', 'ورود دومرحله‌ای'],
  ['/audit', 'گزارش تغییرات'],
  ['/exports', 'خروجی‌ها'],
];

function isCurrent(path: string, current: string): boolean {
  return path === '/' ? current === '/' : current === path || current.startsWith(`${path}/`);
}

export function Shell({ children }: { children: ReactNode }) {
  const { path } = useLocation();
  const { unit, toggle } = useUnit();
  const attention = useAttention();
  const live = useLiveConnected();
  useReportTwoFactor(attention.mustSetUpTotp);
  useTwoFactorGate(path);
  const signOut = async () => {
    await logout();
    navigate(`${BASE}/login`, { replace: true });
  };
  const badge = attention.count > 0 ? `${faNumber(attention.count)}${attention.more ? '+' : ''}` : null;
  return (
    <div className="layout">
      <a className="skip" href="#main">
        پرش به محتوا
      </a>
      <header className="top">
        <div className="top-row">
          {/* The merchant's name and the user's email keep their lines while they load: nothing below moves. */}
          <p className="brand">
            داشبورد پذیرنده
            <span className="merchant">{attention.merchantName ?? '\u00a0'}</span>
            {attention.user ? (
              <span className="merchant" dir="ltr" id="signed-in-as">
                {attention.user.email}
              </span>
            ) : (
              !attention.loaded && <span className="merchant">{'\u00a0'}</span>
            )}
          </p>
          <div className="top-actions">
            <span className={`live ${live ? 'on' : 'off'}`} id="live-state">
              {live ? 'به‌روز، زنده' : 'در حال اتصال…'}
            </span>
            <button type="button" className="secondary small" aria-pressed={unit === 'rial'} onClick={toggle}>
              {unit === 'toman' ? 'نمایش به ریال' : 'نمایش به تومان'}
            </button>
            <button type="button" className="secondary small" onClick={signOut}>
              خروج
            </button>
          </div>
        </div>
        <nav aria-label="بخش‌های داشبورد" className="nav">
          <ul>
            {NAV.map(([to, text]) => (
              <li key={to}>
                <Link to={`${BASE}${to === '/' ? '' : to}`} aria-current={isCurrent(to, path) ? 'page' : undefined}>
                  {text}
                  {to === '/review' && badge && (
                    <span className="count" id="attention-count" data-count={attention.count} aria-label={`${faDigits(attention.count)} مورد منتظر تصمیم`}>
                      {badge}
                    </span>
                  )}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      {attention.offline.length > 0 && (
        <div className="banner" role="status" id="offline-banner">
          {attention.offline.map((d) => (
            <p key={d.id} data-device-id={d.id}>
              گوشی «{d.name}» آفلاین است؛ کارت‌های آن تا برگشتن گوشی پرداخت تازه نمی‌گیرند. <Link to={`${BASE}/devices`}>وضعیت گوشی‌ها</Link>
            </p>
          ))}
        </div>
      )}
      <main id="main" tabIndex={-1}>
        <RoleContext.Provider value={attention.user?.role ?? null}>{children}</RoleContext.Provider>
      </main>
    </div>
  );
}
