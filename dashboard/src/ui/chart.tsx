import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { faDigits, faNumber } from '../format.js';

/**
 * The overview's chart: net received per Jalali day or month, as bars (uPlot, a canvas chart small
 * enough for a phone). Its own chunk: the overview's figures show before it is fetched. The figures
 * it draws are the table beside it (the chart is a picture of them, hidden from screen readers).
 */
export type ChartPoint = { label: string; value: number };

export default function NetChart({ points, unitName }: { points: ChartPoint[]; unitName: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = points.map((_, i) => i);
    const ys = points.map((p) => p.value);
    const width = Math.max(240, el.clientWidth);
    const bars = uPlot.paths.bars?.({ size: [0.7, 40] });
    const plot = new uPlot(
      {
        width,
        height: 200,
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: false, range: [-0.5, Math.max(0.5, points.length - 0.5)] } },
        axes: [
          {
            stroke: '#475569',
            grid: { show: false },
            values: (_u, splits) => splits.map((i) => (Number.isInteger(i) && points[i] ? faDigits(points[i].label) : '')),
          },
          {
            stroke: '#475569',
            size: 64,
            values: (_u, splits) => splits.map((v) => faNumber(Math.round(v))),
          },
        ],
        series: [{}, { label: unitName, stroke: '#1d4ed8', fill: 'rgba(29, 78, 216, 0.35)', paths: bars, points: { show: false } }],
      },
      [xs, ys],
      el,
    );
    const resize = () => plot.setSize({ width: Math.max(240, el.clientWidth), height: 200 });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [points, unitName]);
  return <div ref={box} className="chart" aria-hidden="true" dir="ltr" />;
}
