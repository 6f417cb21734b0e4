import { escapeHtml, httpsUrl } from './format.js';

export const DEFAULT_BRAND = 'درگاه پرداخت کارت به کارت';

type Brand = { name: string | null; logoUrl: string | null; subtitle: string | null; sandbox: boolean };

/**
 * The coloured header of both hosted pages. Merchant text is isolated by direction (`dir="auto"`),
 * so a Latin name keeps its punctuation where a Latin reader expects it inside the RTL page.
 */
export function renderBrand(b: Brand): string {
  const logo = httpsUrl(b.logoUrl);
  return `<header class="brand" id="brand">
  <div class="brand-row">
    <img id="project-logo" class="logo" alt="" width="40" height="40"${logo ? ` src="${escapeHtml(logo)}"` : ' hidden'}>
    <div class="brand-text">
      <p class="brand-name"><bdi id="project-name">${escapeHtml(b.name || DEFAULT_BRAND)}</bdi></p>
      <p class="brand-sub"${b.subtitle ? '' : ' hidden'}><bdi id="link-title">${escapeHtml(b.subtitle ?? '')}</bdi></p>
    </div>
    <span class="badge" id="sandbox-badge"${b.sandbox ? '' : ' hidden'}>محیط آزمایشی</span>
  </div>
</header>`;
}

const HEX_COLOUR = /^#?([0-9a-fA-F]{6})$/;

function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

/**
 * The project's colour as a stylesheet of its own (`/pay/theme/{rrggbb}.css`): inline styles are
 * barred by the CSP, and a colour set by script would repaint after the first paint. The ink is
 * white or near-black, whichever contrasts more with the colour.
 */
export function themeCss(colour: string): string | null {
  const hex = HEX_COLOUR.exec(colour)?.[1]?.toLowerCase();
  if (!hex) return null;
  const L = luminance(hex);
  const ink = 1.05 / (L + 0.05) >= (L + 0.05) / 0.05 ? '#ffffff' : '#0f172a';
  return `:root { --accent: #${hex}; --accent-ink: ${ink}; }\n`;
}

export function themeHref(colour: string | null | undefined): string | null {
  const hex = colour ? HEX_COLOUR.exec(colour)?.[1]?.toLowerCase() : undefined;
  return hex ? `/pay/theme/${hex}.css` : null;
}
