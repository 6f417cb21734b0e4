import type { ReactNode } from 'react';

/**
 * Data shown as it is (names the merchant typed, order ids, emails, SMS texts, URLs, keys, card
 * masks): kept out of the page's Persian by `translate="no"` (no browser translates it), in its own
 * direction (`dir="ltr"` for codes and addresses; names find their own).
 */
export function Data({ children, ltr = true, className }: { children: ReactNode; ltr?: boolean; className?: string }) {
  return (
    <bdi dir={ltr ? 'ltr' : 'auto'} translate="no" className={className}>
      {children}
    </bdi>
  );
}

/** A name the merchant typed (a project, a phone, a card holder): its own direction. */
export function Name({ children }: { children: ReactNode }) {
  return <Data ltr={false}>{children}</Data>;
}

/** "سفارش <order id>", or "پرداخت <start of id>" for a payment without an order id. */
export function OrderTitle({ payment }: { payment: { id: string; orderId?: string | null } }) {
  return payment.orderId ? (
    <>
      سفارش <Data>{payment.orderId}</Data>
    </>
  ) : (
    <>
      پرداخت <Data>{payment.id.slice(0, 8)}</Data>
    </>
  );
}

/** A project's section title: its name, «(آزمایشی)» for a sandbox, the start of its id where two read the same. */
export function ProjectTitle({ project, projects }: { project: { id: string; name: string; sandbox: boolean }; projects: readonly { id: string; name: string; sandbox: boolean }[] }) {
  const twin = projects.some((p) => p.id !== project.id && p.name === project.name && p.sandbox === project.sandbox);
  return (
    <>
      <Name>{project.name}</Name>
      {project.sandbox && ' (آزمایشی)'}
      {twin && (
        <>
          {' — '}
          <Data>{project.id.slice(0, 8)}</Data>
        </>
      )}
    </>
  );
}
