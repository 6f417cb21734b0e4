/** Iranian banks by the code cards and SMS parsers use; the name is what the payer sees. */
export const banks: Record<string, string> = {
  melli: 'بانک ملی ایران',
  mellat: 'بانک ملت',
  saderat: 'بانک صادرات ایران',
  tejarat: 'بانک تجارت',
  sepah: 'بانک سپه',
  pasargad: 'بانک پاسارگاد',
  parsian: 'بانک پارسیان',
  saman: 'بانک سامان',
  keshavarzi: 'بانک کشاورزی',
  refah: 'بانک رفاه کارگران',
  maskan: 'بانک مسکن',
  blu: 'بلوبانک',
  eghtesadnovin: 'بانک اقتصاد نوین',
  ayandeh: 'بانک آینده',
  sina: 'بانک سینا',
  shahr: 'بانک شهر',
  dey: 'بانک دی',
  resalat: 'بانک قرض‌الحسنه رسالت',
  postbank: 'پست بانک ایران',
  tosee: 'بانک توسعه تعاون',
  karafarin: 'بانک کارآفرین',
  sarmayeh: 'بانک سرمایه',
  khavarmianeh: 'بانک خاورمیانه',
  mehriran: 'بانک قرض‌الحسنه مهر ایران',
  iranzamin: 'بانک ایران زمین',
  gardeshgari: 'بانک گردشگری',
  ghavamin: 'بانک قوامین',
  toseesaderat: 'بانک توسعه صادرات ایران',
};

export function bankName(code: string): string {
  return banks[code] ?? code;
}
