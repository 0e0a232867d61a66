import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { useHeaderPlace } from './headerFold';

interface Props extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> {
  /** the accessible name, also shown as the tooltip (and as the text in the "more tools" menu) */
  label: string;
  icon: ReactNode;
  'data-testid'?: string;
}

/**
 * An icon button of the header; it takes the header's text colour of the current theme. The icon is
 * decorative (hidden from assistive technology): the label names the button in the UI language.
 */
export function HeaderIconButton({ label, icon, className, children, ...rest }: Props) {
  const inMore = useHeaderPlace() === 'more';
  return (
    <button
      type="button"
      aria-label={label}
      title={inMore ? undefined : label}
      className={`shell-header-btn${inMore ? ' shell-header-btn-wide' : ''}${className ? ` ${className}` : ''}`}
      {...rest}
    >
      <span className="shell-header-btn-icon" aria-hidden="true">{icon}</span>
      {children}
      {inMore && <span className="shell-header-btn-text" aria-hidden="true">{label}</span>}
    </button>
  );
}
