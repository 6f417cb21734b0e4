// ExcelJS's streaming workbook writer on its own (exceljs 4.4.0 ships no typings for the file): the
// class the package exports as `stream.xlsx.WorkbookWriter`, imported without the rest of the package.
declare module 'exceljs/lib/stream/xlsx/workbook-writer.js' {
  import type ExcelJS from 'exceljs';
  const WorkbookWriter: typeof ExcelJS.stream.xlsx.WorkbookWriter;
  export default WorkbookWriter;
}

// ExcelJS's helpers module (exceljs 4.4.0, no typings): only its XML text escaping is used.
declare module 'exceljs/lib/utils/utils.js' {
  const utils: { xmlEncode: (text: string) => string };
  export default utils;
}
