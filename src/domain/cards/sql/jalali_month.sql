-- The Jalali month for the monthly card caps (docs/dashboard.md "Cards"): where the Jalali
-- month of an instant starts, Tehran time. Owned here; the create function
-- (src/domain/payments/sql/create_payment.sql) counts a card's month from it. The arithmetic is
-- jalaali-js's (Borkowski's table of break years), which src/domain/sms/jalali.ts reads bank dates
-- with; test/payments/monthly-caps.test.ts holds the two equal over years of month boundaries.

-- 1 Farvardin of the Jalali year that starts in Gregorian year `gy` (a day in March of `gy`).
CREATE OR REPLACE FUNCTION jalali_new_year(gy integer) RETURNS date
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  breaks constant integer[] := ARRAY[-61, 9, 38, 199, 426, 686, 756, 818, 1111, 1181, 1210, 1635, 2060, 2097, 2192, 2262, 2324, 2394, 2456, 3178];
  jy constant integer := gy - 621;
  leap_j integer := -14;
  jp integer := breaks[1];
  jump integer := 0;
  n integer;
  leap_g integer;
BEGIN
  IF jy < breaks[1] OR jy >= breaks[cardinality(breaks)] THEN
    RAISE EXCEPTION 'Jalali year % is outside the calendar''s table', jy;
  END IF;
  -- Leap years of the Jalali calendar up to the break year before jy, then on to jy.
  FOR i IN 2..cardinality(breaks) LOOP
    jump := breaks[i] - jp;
    EXIT WHEN jy < breaks[i];
    leap_j := leap_j + (jump / 33) * 8 + (jump % 33) / 4;
    jp := breaks[i];
  END LOOP;
  n := jy - jp;
  leap_j := leap_j + (n / 33) * 8 + (n % 33 + 3) / 4;
  IF jump % 33 = 4 AND jump - n = 4 THEN
    leap_j := leap_j + 1;
  END IF;
  -- And the Gregorian calendar's, up to gy.
  leap_g := gy / 4 - (gy / 100 + 1) * 3 / 4 - 150;
  RETURN make_date(gy, 3, 20 + leap_j - leap_g);
END;
$$;

-- Midnight (Tehran) of the first day of the Jalali month `instant` falls in, Tehran time.
CREATE OR REPLACE FUNCTION jalali_month_start(instant timestamptz) RETURNS timestamptz
LANGUAGE plpgsql STABLE STRICT AS $$
DECLARE
  day constant date := (instant AT TIME ZONE 'Asia/Tehran')::date;
  new_year date := jalali_new_year(extract(year FROM day)::integer);
  k integer;
BEGIN
  IF day < new_year THEN
    new_year := jalali_new_year(extract(year FROM day)::integer - 1);
  END IF;
  k := day - new_year;
  -- Farvardin to Shahrivar have 31 days, Mehr to Bahman 30, Esfand what is left (29 or 30).
  RETURN (CASE WHEN k < 186 THEN new_year + 31 * (k / 31) ELSE new_year + 186 + 30 * ((k - 186) / 30) END)::timestamp
         AT TIME ZONE 'Asia/Tehran';
END;
$$;
