/** RFC 4180 records from CSV text (after the BOM): quoted fields may hold commas, quotes ("") and line breaks. */
export function readCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field !== '' || record.length) throw new Error('the CSV does not end with CRLF');
  return records;
}

/** The records as objects keyed by the header row. */
export function readCsvObjects(text: string): Record<string, string>[] {
  const [header, ...rows] = readCsv(text);
  return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!])));
}
