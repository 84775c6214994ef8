/**
 * The frame every chart of the dashboard is drawn in: a figure with its caption, and an SVG of a fixed drawing size
 * that scales down with the page (never up), labelled for screen readers with the same title.
 */
import type { ReactNode } from 'react';

export function ChartFigure({
  title,
  testId,
  width,
  height,
  children,
  after,
}: {
  title: string;
  testId: string;
  width: number;
  height: number;
  /** The SVG's content. */
  children: ReactNode;
  /** Shown under the drawing (a legend). */
  after?: ReactNode;
}) {
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        style={{ maxWidth: `${width}px` }}
        role="img"
        aria-label={title}
      >
        {children}
      </svg>
      {after}
    </figure>
  );
}
