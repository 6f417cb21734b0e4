-- The Jalali day an instant falls in, Tehran time, as `1405-09-04` (schema.graphql
-- `paymentStats` periods). Owned here; the month is its first seven characters. It counts
-- from jalali_new_year (src/domain/cards/sql/jalali_month.sql, listed before this file), the same
-- arithmetic as jalaali-js; test/reports/jalali-date.test.ts holds it equal to the TypeScript
-- conversion (src/domain/calendar/tehran-calendar.ts) over every day of two centuries.
CREATE OR REPLACE FUNCTION jalali_date(instant timestamptz) RETURNS text
LANGUAGE plpgsql STABLE STRICT AS $$
DECLARE
  day constant date := (instant AT TIME ZONE 'Asia/Tehran')::date;
  gy constant integer := extract(year FROM day)::integer;
  new_year date := jalali_new_year(gy);
  jy integer := gy - 621;
  k integer;
  jm integer;
  jd integer;
BEGIN
  IF day < new_year THEN
    new_year := jalali_new_year(gy - 1);
    jy := gy - 622;
  END IF;
  k := day - new_year;
  -- Farvardin to Shahrivar have 31 days, Mehr to Bahman 30, Esfand what is left (29 or 30).
  IF k < 186 THEN
    jm := 1 + k / 31;
    jd := 1 + k % 31;
  ELSE
    jm := 7 + (k - 186) / 30;
    jd := 1 + (k - 186) % 30;
  END IF;
  RETURN lpad(jy::text, 4, '0') || '-' || lpad(jm::text, 2, '0') || '-' || lpad(jd::text, 2, '0');
END;
$$;
