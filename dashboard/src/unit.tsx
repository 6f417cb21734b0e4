import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { formatAmount, type Unit } from './format.js';

/** Amounts show in toman; rials on demand (a toggle in the header, remembered on this browser). */
const KEY = 'dashboard.unit';
const UnitContext = createContext<{ unit: Unit; toggle: () => void }>({ unit: 'toman', toggle: () => {} });

function stored(): Unit {
  try {
    return window.localStorage.getItem(KEY) === 'rial' ? 'rial' : 'toman';
  } catch {
    return 'toman';
  }
}

export function UnitProvider({ children }: { children: ReactNode }) {
  const [unit, setUnit] = useState<Unit>(stored);
  const toggle = useCallback(() => {
    setUnit((u) => {
      const next = u === 'toman' ? 'rial' : 'toman';
      try {
        window.localStorage.setItem(KEY, next);
      } catch {
        // A private window may refuse storage; the toggle still works for this visit.
      }
      return next;
    });
  }, []);
  return <UnitContext.Provider value={{ unit, toggle }}>{children}</UnitContext.Provider>;
}

export const useUnit = () => useContext(UnitContext);

/** An amount in rials, shown in the chosen unit; the other unit in its title. */
export function Amount({ rials }: { rials: string | null | undefined }) {
  const { unit } = useUnit();
  if (rials == null) return <span>—</span>;
  return (
    <span className="amount" title={formatAmount(rials, unit === 'toman' ? 'rial' : 'toman')}>
      {formatAmount(rials, unit)}
    </span>
  );
}

/** The number part of formatAmount (no unit word): «۱۲٬۳۴۵» toman or rials. */
function amountNumber(rials: string, unit: Unit): string {
  return formatAmount(rials, unit).replace(/ (تومان|ریال)$/, '');
}

/**
 * Used against a cap, in the chosen unit: «۱۲۰٬۰۰۰ از ۵۰۰٬۰۰۰ تومان», or «۱۲۰٬۰۰۰ تومان» with no cap;
 * the other unit in its title.
 */
export function AmountOf({ rials, of }: { rials: string; of: string | null | undefined }) {
  const { unit } = useUnit();
  const text = (u: Unit) => (of == null ? formatAmount(rials, u) : `${amountNumber(rials, u)} از ${formatAmount(of, u)}`);
  return (
    <span className="amount" title={text(unit === 'toman' ? 'rial' : 'toman')}>
      {text(unit)}
    </span>
  );
}
