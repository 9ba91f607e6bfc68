import { create } from 'qrcode';
import { useMemo } from 'react';

/**
 * A QR code drawn as SVG rectangles by React: no HTML strings, no canvas, nothing the CSP forbids.
 * The modules come from the `qrcode` package's encoder; we only draw them.
 */
export function QrCode({ value, label, size = 160 }: { value: string; label: string; size?: number }) {
  const { count, path } = useMemo(() => {
    const { modules } = create(value, { errorCorrectionLevel: 'M' });
    let d = '';
    for (let y = 0; y < modules.size; y++) {
      for (let x = 0; x < modules.size; x++) if (modules.get(x, y)) d += `M${x + 4} ${y + 4}h1v1h-1z`;
    }
    return { count: modules.size + 8, path: d };
  }, [value]);
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${count} ${count}`} width={size} height={size} shapeRendering="crispEdges" className="rounded-md bg-white">
      <rect width={count} height={count} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
