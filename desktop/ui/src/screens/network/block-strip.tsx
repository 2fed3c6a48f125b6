import type { CSSProperties } from 'react';

/**
 * The model's blocks as a row of cells, block 0 first (at the reading start: the right in
 * Persian). Each cell is painted by `paint` (a device's colour, or none: left grey). The whole
 * row is one image named by `label`, which says in words what the colours show.
 */
export function BlockStrip(props: {
  total: number;
  label: string;
  paint(block: number): CSSProperties | null;
  title?(block: number): string;
}) {
  return (
    <div role="img" aria-label={props.label} className="flex h-4 w-full gap-px" data-testid="block-strip">
      {Array.from({ length: props.total }, (_, block) => {
        const style = props.paint(block);
        return (
          <span
            key={block}
            className={`min-w-0 flex-1 first:rounded-s-sm last:rounded-e-sm ${style ? '' : 'bg-slate-200'}`}
            style={style ?? undefined}
            title={props.title?.(block)}
            data-held={style !== null}
          />
        );
      })}
    </div>
  );
}
