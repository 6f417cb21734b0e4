import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useAttention } from '../attention.js';
import { faDigits, faNumber } from '../format.js';
import { useLiveConnected } from '../live.js';
import { BASE, Link, navigate, useLocation, type Mode } from '../router.js';
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
  ['/chat', 'تلگرام و بله'],
  ['/audit', 'گزارش تغییرات'],
  ['/exports', 'خروجی‌ها'],
];

/** The daily sections: the phone's bottom bar (the rest, and these, are in the "more" sheet). */
const DAILY = ['/', '/payments', '/review', '/devices'];
const SHORT: Record<string, string> = { '/': 'نمای کلی', '/payments': 'پرداخت‌ها', '/review': 'بررسی', '/devices': 'گوشی‌ها' };

function isCurrent(path: string, current: string): boolean {
  return path === '/' ? current === '/' : current === path || current.startsWith(`${path}/`);
}

export function Shell({ children }: { children: ReactNode }) {
  const { path, mode } = useLocation();
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
  const reviewBadge = (id?: string) =>
    badge && (
      <span className="count" id={id} data-count={attention.count} aria-label={`${faDigits(attention.count)} مورد منتظر تصمیم`}>
        {badge}
      </span>
    );
  return (
    <div className="layout" data-mode={mode}>
      <a className="skip" href="#main">
        پرش به محتوا
      </a>
      <header className={`top${mode === 'test' ? ' top-test' : ''}`}>
        <div className="top-row">
          {/* The merchant's name and the user's email keep their lines while they load: nothing below moves. */}
          <p className="brand">
            داشبورد پذیرنده
            <span className="merchant" translate="no">
              {attention.merchantName ?? '\u00a0'}
            </span>
            {attention.user ? (
              <span className="merchant" dir="ltr" translate="no" id="signed-in-as">
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
            <ModeSwitch mode={mode} path={path} />
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
                  {to === '/review' && reviewBadge('attention-count')}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      {mode === 'test' && (
        <aside className="banner banner-test" id="test-banner" aria-label="داده‌های آزمایشی">
          <p>
            داده‌های آزمایشی (پروژه‌های آزمایشی و واریزهای شبیه‌سازی‌شده) نمایش داده می‌شوند؛ هیچ‌کدام پول واقعی نیست.{' '}
            <Link to={BASE} mode="live">
              داده‌های واقعی
            </Link>
          </p>
        </aside>
      )}
      {attention.offline.length > 0 && (
        <div className="banner" role="status" id="offline-banner">
          {attention.offline.map((d) => (
            <p key={d.id} data-device-id={d.id}>
              گوشی «<span translate="no">{d.name}</span>» آفلاین است؛ کارت‌های آن تا برگشتن گوشی پرداخت تازه نمی‌گیرند. <Link to={`${BASE}/devices`}>وضعیت گوشی‌ها</Link>
            </p>
          ))}
        </div>
      )}
      <main id="main" tabIndex={-1}>
        <RoleContext.Provider value={attention.user?.role ?? null}>{children}</RoleContext.Provider>
      </main>
      <BottomBar path={path} badge={reviewBadge()} />
    </div>
  );
}

/** Live or test data: two links to the same page in the other mode (the mirror /dashboard/test/…). */
function ModeSwitch({ mode, path }: { mode: Mode; path: string }) {
  const to = `${BASE}${path === '/' ? '' : path}`;
  return (
    <span className="mode-switch" role="group" aria-label="نوع داده‌ها" id="mode-switch">
      <Link to={to} mode="live" aria-current={mode === 'live' ? 'true' : undefined} data-mode="live">
        واقعی
      </Link>
      <Link to={to} mode="test" aria-current={mode === 'test' ? 'true' : undefined} data-mode="test">
        آزمایشی
      </Link>
    </span>
  );
}

/**
 * The phone's navigation: the daily sections at the bottom, within the thumb's reach, and "more"
 * opening a sheet with every section (nothing clipped, nothing to scroll sideways). Hidden from
 * 960 px, where the side column lists them all.
 */
function BottomBar({ path, badge }: { path: string; badge: ReactNode }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const sheet = useRef<HTMLDivElement>(null);
  useEffect(() => setOpen(false), [path]);
  useEffect(() => {
    if (!open) return;
    sheet.current?.querySelector<HTMLElement>('a')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  const daily = NAV.filter(([to]) => DAILY.includes(to));
  return (
    <>
      {open && <div className="sheet-backdrop" onClick={() => setOpen(false)} aria-hidden="true" />}
      <div className="sheet" id="more-sheet" role="dialog" aria-modal="true" aria-label="همهٔ بخش‌ها" hidden={!open} ref={sheet}>
        <ul>
          {NAV.map(([to, text]) => (
            <li key={to}>
              <Link to={`${BASE}${to === '/' ? '' : to}`} aria-current={isCurrent(to, path) ? 'page' : undefined} onClick={() => setOpen(false)}>
                {text}
              </Link>
            </li>
          ))}
        </ul>
      </div>
      <nav aria-label="بخش‌های روزانه" className="tabbar" id="tabbar">
        <ul>
          {daily.map(([to, text]) => (
            <li key={to}>
              <Link to={`${BASE}${to === '/' ? '' : to}`} aria-current={isCurrent(to, path) ? 'page' : undefined}>
                <span>{SHORT[to] ?? text}</span>
                {to === '/review' && badge}
              </Link>
            </li>
          ))}
          <li>
            <button type="button" ref={button} aria-expanded={open} aria-controls="more-sheet" onClick={() => setOpen((o) => !o)} id="more-button">
              <span>بیشتر</span>
            </button>
          </li>
        </ul>
      </nav>
    </>
  );
}
