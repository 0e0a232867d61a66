import { Tooltip } from 'antd';
import { useState, type MouseEvent } from 'react';

/**
 * A table cell's text, cut with an ellipsis by its column; when it is cut, hovering shows it whole.
 * (Whether it is cut is measured on hover only: a page of 200 rows has no observer per cell.)
 */
export function CellText({ text }: { text: string }) {
  const [cut, setCut] = useState(false);
  const onMouseEnter = (event: MouseEvent<HTMLSpanElement>) => {
    const el = event.currentTarget;
    setCut(el.scrollWidth > el.clientWidth);
  };
  return (
    <Tooltip title={cut ? text : undefined} placement="topLeft">
      <span className="resource-cell-text" onMouseEnter={onMouseEnter}>
        {text}
      </span>
    </Tooltip>
  );
}
