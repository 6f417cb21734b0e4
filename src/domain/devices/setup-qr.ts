import { toString as qrSvg } from 'qrcode';

/**
 * One-tap phone set-up (docs/forwarders.md): the hook URL as an SVG QR code, so the merchant points
 * the forwarder app at the gateway by scanning it from the dashboard. Shown once, like the URL.
 */
export function setupQr(url: string): Promise<string> {
  return qrSvg(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}
