import { useEffect, useState } from 'react';
import { toString as qrSvg } from 'qrcode';
import { Loading } from './common.js';

/** A text (a URL) as an SVG QR code (the qrcode library), shown as an image: the CSP allows data: images. */
export function QrCode({ value, alt, id }: { value: string; alt: string; id?: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    qrSvg(value, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
      .then((svg) => live && setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`))
      .catch(() => live && setSrc(null));
    return () => {
      live = false;
    };
  }, [value]);
  if (!src) return <Loading />;
  return <img className="qr" id={id} src={src} width={200} height={200} alt={alt} />;
}
