import type { ButtonHTMLAttributes, ReactNode } from 'react';

interface Props extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> {
  /** the accessible name, also shown as the tooltip */
  label: string;
  icon: ReactNode;
  'data-testid'?: string;
}

/** An icon button of the header; it takes the header's text colour of the current theme. */
export function HeaderIconButton({ label, icon, className, children, ...rest }: Props) {
  return (
    <button type="button" aria-label={label} title={label} className={`shell-header-btn${className ? ` ${className}` : ''}`} {...rest}>
      {icon}
      {children}
    </button>
  );
}
