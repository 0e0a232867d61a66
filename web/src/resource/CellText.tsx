import { Tooltip } from 'antd';
import { useState, type MouseEvent } from 'react';

/**
 * A table cell's text, cut with an ellipsis by its column; when it is cut, hovering shows it whole.
 * Whether it is cut is measured on hover, and the tooltip is created then: a page of 200 rows carries
 * no tooltip or observer per cell.
 */
export function CellText({ text }: { text: string }) {
  const [tip, setTip] = useState(false);
  const onMouseEnter = (event: MouseEvent<HTMLSpanElement>) => {
    const el = event.currentTarget;
    if (!tip && el.scrollWidth > el.clientWidth) setTip(true);
  };
  const span = (
    <span className="resource-cell-text" onMouseEnter={onMouseEnter}>
      {text}
    </span>
  );
  return tip ? (
    <Tooltip title={text} placement="topLeft" defaultOpen>
      {span}
    </Tooltip>
  ) : (
    span
  );
}
